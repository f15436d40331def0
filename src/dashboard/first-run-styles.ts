/**
 * Styles of the quick shorten box, the first-run Overview, the Overview's tag choice and the
 * Shorten page, in the colours of the pages' stylesheet (so dark mode and phone widths follow
 * from it).
 */
export const FIRST_RUN_STYLES = `
.shorten h2{margin:0 0 .25rem}
.shorten.compact{padding:0;border:0;background:transparent;box-shadow:none;margin-bottom:.75rem}
.shorten-form label{margin:.25rem 0 .35rem}
.shorten-row{display:flex;gap:.5rem}
.shorten-row input{flex:1 1 auto;min-width:0}
.shorten-row button{flex:0 0 auto}
.shorten-result{display:flex;gap:1rem;align-items:center;margin-top:.75rem;padding-top:.75rem;border-top:1px solid var(--line)}
.qr-thumb-link{flex:0 0 auto}
.qr-thumb{display:block;width:88px;height:88px;background:#fff;padding:4px;border-radius:6px}
.shorten-result-text{min-width:0}
.shorten-result-text p{margin:.15rem 0}
.shortened{font-size:1.2rem;font-weight:700}
.shorten-actions{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center}
.lead{font-size:1.05rem;margin:0 0 1rem}
.next-steps{padding-left:1.2rem}.next-steps li{margin:.5rem 0}
.overview-tag{margin:0 0 .75rem}
`.trim()
