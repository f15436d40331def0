/**
 * Styles of the tags field's chips (tag-chips-script.ts): a box that looks like an input, a
 * chip per tag with its remove button, the input that takes the next name, and the suggestion
 * list under it. Without the script none of these elements exist.
 */
export const TAG_CHIPS_STYLES = `
.chip-combo{position:relative}
.chips{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem;padding:.3rem .4rem;border:1px solid var(--line);border-radius:8px;cursor:text}
.chips:focus-within{outline:3px solid var(--accent);outline-offset:2px}
.chips:has(input[aria-invalid=true]){border-color:var(--error)}
.chip-list{display:contents;list-style:none}
.chips input{flex:1 1 8rem;min-width:6rem;width:auto;border:0;padding:.3rem .35rem}
.chips input:focus-visible{outline:none}
.chip{display:inline-flex;align-items:center;gap:.1rem;max-width:100%;padding:.05rem .15rem .05rem .65rem;border:1px solid var(--accent);border-radius:999px;background:color-mix(in srgb,var(--accent) 12%,transparent);font-size:.9rem;line-height:1.5}
.chip span{overflow-wrap:anywhere}
.chip button{padding:0 .4rem;border:0;border-radius:999px;background:transparent;color:inherit;font-weight:400;font-size:1.05rem;line-height:1.3}
.chip button:hover{background:color-mix(in srgb,var(--accent) 28%,transparent)}
.chip-suggestions{position:absolute;z-index:3;top:100%;left:0;right:0;margin:.3rem 0 0;padding:.25rem 0;list-style:none;background:var(--card);border:1px solid var(--line);border-radius:8px;box-shadow:0 8px 24px rgb(0 0 0/.18);max-height:16rem;overflow-y:auto}
.chip-suggestions li{padding:.45rem .75rem;cursor:pointer;overflow-wrap:anywhere}
.chip-suggestions li:hover{background:var(--bg)}
.chip-suggestions li[aria-selected=true]{background:var(--accent);color:var(--accent-fg)}
`.trim()
