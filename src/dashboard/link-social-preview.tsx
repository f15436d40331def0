/**
 * The "Social preview" section of the link form: the title, description and image that
 * link-preview fetchers (Slack, X, Facebook, WhatsApp …) are shown for the short URL, and a card
 * drawn as the networks draw it (image on top, then the domain, the title and the
 * description). The card is rendered here from the form's values; the dashboard script
 * (social-card-script.ts) redraws it as they are typed. The image is loaded from the URL typed,
 * and only over https (the link form's Content-Security-Policy allows `https:` images).
 */
import { Errors, Input, idOf, type Messages } from './form-fields.js'
import type { LinkFormValues } from './link-form.js'

/** Whether the form's values set any of the three fields. */
export function socialState(values: LinkFormValues): string {
  const set = [values.og_title, values.og_description, values.og_image].filter((v) => v !== '')
  return set.length === 0 ? 'Off: fetchers follow the link' : `On: ${set.length} of 3 set`
}

/** An https URL the card may load, or null. */
export function cardImage(value: string): string | null {
  if (!/^https:\/\/[^/?#\s]/i.test(value)) return null
  try {
    return new URL(value).href
  } catch {
    return null
  }
}

function Description(props: { value: string; errors: Messages }) {
  const id = idOf('og_description')
  const messages = props.errors.og_description
  return (
    <div class="field">
      <label for={id}>Preview description</label>
      <textarea
        id={id}
        name="og_description"
        rows={3}
        maxLength={1000}
        aria-invalid={messages?.length ? 'true' : undefined}
        aria-describedby={messages?.length ? `${id}-hint ${id}-error` : `${id}-hint`}
      >
        {props.value}
      </textarea>
      <p class="muted small hint" id={`${id}-hint`}>
        Up to 1,000 characters. Networks show the first two or three lines.
      </p>
      <Errors id={id} messages={messages} />
    </div>
  )
}

export function SocialPreview(props: {
  values: LinkFormValues
  errors: Messages
  /** The short link's domain name, as the card shows it. */
  domain: string
  /** What the card's title falls back to without a preview title or a link title. */
  fallbackTitle: string
}) {
  const { values } = props
  const image = cardImage(values.og_image)
  const httpImage = values.og_image !== '' && image === null && /^http:\/\//i.test(values.og_image)
  const title = values.og_title || values.title || props.fallbackTitle
  return (
    <div class="social">
      <p class="muted small">
        Chat apps and social networks (Slack, X, Facebook, LinkedIn, WhatsApp, Discord, Telegram,
        iMessage …) show this card for the short URL. With none of these set, they follow the link
        and show the destination's own card. People are always sent to the destination.
      </p>
      <div class="social-grid">
        <div class="social-fields">
          <Input
            name="og_title"
            label="Preview title"
            value={values.og_title}
            errors={props.errors}
            hint="Up to 255 characters. Empty: the link's title."
          />
          <Description value={values.og_description} errors={props.errors} />
          <Input
            name="og_image"
            label="Preview image URL"
            value={values.og_image}
            inputMode="url"
            placeholder="https://"
            errors={props.errors}
            hint="An http or https URL of an image, ideally 1200 × 630 pixels."
          />
        </div>
        <figure
          class="social-card"
          id="social-card"
          data-fallback-title={props.fallbackTitle}
          aria-label="The card as networks draw it"
        >
          <div class="social-card-image" id="social-card-image-box" hidden={image === null}>
            <img
              id="social-card-image"
              src={image ?? undefined}
              alt=""
              referrerpolicy="no-referrer"
            />
          </div>
          <figcaption class="social-card-text">
            <span class="social-card-domain" id="social-card-domain">
              {props.domain}
            </span>
            <strong class="social-card-title" id="social-card-title">
              {title}
            </strong>
            <span class="social-card-description" id="social-card-description">
              {values.og_description}
            </span>
          </figcaption>
        </figure>
      </div>
      <p class="muted small" id="social-card-http" hidden={!httpImage}>
        This image is on http: networks fetch it as it is, but the dashboard shows https images
        only.
      </p>
    </div>
  )
}
