/**
 * A link's social preview: the title, description and image that link-preview fetchers (Slack,
 * X, Facebook, WhatsApp …) are shown for its short URL instead of the redirect. A link has one
 * when any of the three is set.
 */
export const SOCIAL_FIELDS = ['og_title', 'og_description', 'og_image'] as const

export interface SocialPreview {
  title: string | null
  description: string | null
  image: string | null
}

/** The preview of a row's fields, or null when none of them is set. */
export function socialPreviewOf(row: {
  og_title: string | null
  og_description: string | null
  og_image: string | null
}): SocialPreview | null {
  if (row.og_title === null && row.og_description === null && row.og_image === null) return null
  return { title: row.og_title, description: row.og_description, image: row.og_image }
}
