/** What identifies a link to the redirect cache, and a way to list the links a change touches. */
export interface LinkKey {
  id: number
  domainId: number
  alias: string
}

export type LinkKeysOf = (filter: {
  spaceId?: number
  pixelId?: number
  domainId?: number
}) => Promise<LinkKey[]>
