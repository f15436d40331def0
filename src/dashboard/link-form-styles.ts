/**
 * Styles of the link form's layout: the main fields, the closed sections with what is set in
 * their summaries, and the parts that show only for a choice (the statistics password for
 * "with a password", the targeting list of the chosen kind). Those follow the select through
 * `:has()`, so they work without JavaScript.
 */
export const LINK_FORM_STYLES = `
@media (min-width:48rem){.form-footer{position:sticky;bottom:0;z-index:1;background:var(--bg);border-top:1px solid var(--line);padding:.6rem 0;margin-top:1rem}}
.link-main>.field:first-of-type label{margin-top:0}
.link-form .pair{grid-template-columns:repeat(auto-fit,minmax(min(100%,12rem),1fr))}
.label-like{font-weight:600;margin:.75rem 0 .35rem}
.options{padding:0}
.option+.option{border-top:1px solid var(--line)}
.option summary{display:flex;flex-wrap:wrap;align-items:baseline;gap:.1rem 1rem;padding:.7rem 1.25rem;cursor:pointer;list-style:none}
.option summary::-webkit-details-marker{display:none}
.option summary::before{content:"";width:.5rem;height:.5rem;border:solid var(--muted);border-width:0 2px 2px 0;transform:rotate(-45deg);margin-right:.25rem;align-self:center}
.option[open] summary::before{transform:rotate(45deg)}
.option summary:focus-visible{outline:3px solid var(--accent);outline-offset:-3px}
.option-name{font-weight:700}
.option-state{color:var(--muted);font-size:.9rem}
.option-body{padding:0 1.25rem 1rem}
.option-body>.field:first-child label,.option-body>p:first-child{margin-top:0}
.privacy-password{display:none}
.statistics-options:has(#privacy option[value="2"]:checked) .privacy-password{display:block}
.targeting .targets{display:none}
.targeting:has(#target_type option[value="1"]:checked) #targets-country,
.targeting:has(#target_type option[value="2"]:checked) #targets-platform,
.targeting:has(#target_type option[value="3"]:checked) #targets-language,
.targeting:has(#target_type option[value="4"]:checked) #targets-rotation{display:block}
#utm .utm-choose{display:flex;flex-wrap:wrap;align-items:flex-end;gap:0 1rem}
#utm .utm-choose .field{flex:1 1 14rem}
#utm .utm-choose button{margin-bottom:.75rem}
@media (max-width:40rem){.option summary{padding:.7rem 1rem}.option-body{padding:0 1rem 1rem}}
`.trim()
