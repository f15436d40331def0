/**
 * A link's destinations (`url`, `expiration_url`, targeting values, rule destinations): an
 * http(s) URL or an app link of an allowed scheme (shared/destination-url.ts). The schema
 * fragment validates through the app's `destination-url` format, registered with the configured
 * schemes; `destinationUrlError` is the same check for code that validates outside a schema.
 */
import { isDestinationUrl } from '../shared/destination-url.js'
import { FORMAT_MESSAGES } from '../shared/formats.js'
import { FormattedString } from '../shared/schema.js'

/** At most this many characters, like phpShort's URLs. */
export const MAX_DESTINATION_LENGTH = 2048

/** A destination field of a request schema. */
export function DestinationUrl(description?: string) {
  return FormattedString('destination-url', {
    maxLength: MAX_DESTINATION_LENGTH,
    ...(description ? { description } : {}),
  })
}

/** The message for a destination that is not one (the field named as given), or `null`. */
export function destinationUrlError(
  value: string,
  field: string,
  appSchemes: ReadonlySet<string>,
): string | null {
  const attribute = field.replace(/_/g, ' ')
  if (value.length > MAX_DESTINATION_LENGTH) {
    return `The ${attribute} field must not be greater than ${MAX_DESTINATION_LENGTH} characters.`
  }
  return isDestinationUrl(value, appSchemes) ? null : FORMAT_MESSAGES['destination-url'](attribute)
}
