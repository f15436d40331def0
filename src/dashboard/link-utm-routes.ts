/**
 * The UTM section's buttons in the link form: Apply writes the chosen template's values into the
 * destination URL, "Save as template" keeps the fields as a new template (the API's rules and
 * messages). Both answer the form again and save nothing of the link.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RenderedPage } from '../pages/layout.js'
import { NotFoundError, ValidationError } from '../shared/errors.js'
import { UtmTemplateCreateBody, type UtmTemplateInput } from '../utm/schema.js'
import type { UtmTemplateService } from '../utm/service.js'
import type { LinkFormValues } from './link-form.js'
import { send, validateAsApi, type Raw } from './link-route-helpers.js'
import {
  templateChoice,
  utmFields,
  withUtm,
  type UtmAction,
  type UtmFormState,
} from './link-utm-form.js'

export interface UtmStep {
  templates: UtmTemplateService
  userId: number
  /** The form page again, with these values and the section's state. */
  page(values: LinkFormValues, utm: Partial<UtmFormState>): Promise<RenderedPage>
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

export async function utmStep(
  request: FastifyRequest,
  reply: FastifyReply,
  step: UtmStep,
  action: UtmAction,
  raw: Raw,
  values: LinkFormValues,
): Promise<FastifyReply> {
  const chosen = text(raw._utm_template)
  const templateName = text(raw._utm_template_name)
  if (action === 'apply') {
    const refuse = (message: string) =>
      step
        .page(values, { chosen, templateName, errors: { _utm_template: [message] } })
        .then((page) => send(reply, 422, page))
    if (!/^[1-9]\d{0,14}$/.test(chosen)) return refuse('Choose a template to apply.')
    try {
      const template = templateChoice(await step.templates.get(step.userId, Number(chosen)))
      const next = { ...values, url: withUtm(values.url, template.values) }
      const notice = `The template “${template.name}” was applied: save the link to keep it.`
      return send(reply, 200, await step.page(next, { chosen, templateName, notice }))
    } catch (error) {
      if (error instanceof NotFoundError) return refuse('That template does not exist any more.')
      throw error
    }
  }
  const input = { name: templateName, ...utmFields(values.url) }
  const { body, errors } = validateAsApi(request, UtmTemplateCreateBody, input)
  try {
    const row = await step.templates.create(
      step.userId,
      body as unknown as UtmTemplateInput,
      errors,
    )
    const notice = `Saved as the template “${row.name}”.`
    return send(reply, 200, await step.page(values, { chosen: String(row.id), notice }))
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    const { name, ...others } = error.fields
    const messages = { ...others, ...(name ? { _utm_template_name: name } : {}) }
    return send(reply, 422, await step.page(values, { chosen, templateName, errors: messages }))
  }
}
