/**
 * Styles of the link form's social preview: the fields beside the card on a wide screen, under
 * it on a phone; the card drawn like the networks' (an image cropped to 1.91:1, then the domain
 * in small capitals, the title and two lines of the description).
 */
export const SOCIAL_CARD_STYLES = `
.social-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,18rem),1fr));gap:0 1.25rem;align-items:start}
.social textarea{width:100%;box-sizing:border-box;font:inherit;padding:.55rem .6rem;border:1px solid var(--line);border-radius:8px;background:var(--card);color:inherit;resize:vertical}
.social-card{margin:.75rem 0 0;border:1px solid var(--line);border-radius:12px;overflow:hidden;background:var(--bg);max-width:32rem}
.social-card-image{aspect-ratio:1.91/1;background:var(--line);overflow:hidden}
.social-card-image img{display:block;width:100%;height:100%;object-fit:cover}
.social-card-text{display:flex;flex-direction:column;gap:.2rem;padding:.6rem .8rem .75rem;min-width:0}
.social-card-domain{color:var(--muted);font-size:.75rem;text-transform:uppercase;letter-spacing:.03em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.social-card-title{overflow-wrap:anywhere;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.social-card-description{color:var(--muted);font-size:.9rem;overflow-wrap:anywhere;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.social-card-description:empty{display:none}
`.trim()
