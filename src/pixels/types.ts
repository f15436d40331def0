/** The ten pixel types; `x` is accepted as the newer name of `twitter` and stored as `twitter`. */
export const PIXEL_TYPES = [
  'adroll',
  'bing',
  'facebook',
  'google-ads',
  'google-analytics',
  'google-tag-manager',
  'linkedin',
  'pinterest',
  'quora',
  'twitter',
] as const
export type PixelType = (typeof PIXEL_TYPES)[number]

export const PIXEL_TYPE_INPUTS = [...PIXEL_TYPES, 'x'] as const
export type PixelTypeInput = (typeof PIXEL_TYPE_INPUTS)[number]

export function canonicalPixelType(type: PixelTypeInput): PixelType {
  return type === 'x' ? 'twitter' : type
}

/** A value the pixel's type accepts, or the message saying why not. */
export function pixelValueProblem(type: PixelType, value: string): string | null {
  if (type === 'adroll' && !/^[A-Za-z0-9]+-[A-Za-z0-9]+$/.test(value)) {
    return 'The value field must have the format ADVID-PIXID for an adroll pixel.'
  }
  return null
}
