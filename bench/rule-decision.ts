/**
 * What redirect rules cost per visit: the compiled decision (`firstRuleUrl`) for links with 0,
 * 5 and 50 rules that all miss (the worst case: every rule is tried), on a visitor whose parts
 * are already known, as the engine's lazy visitor has them after their first read.
 * `node --import tsx bench/rule-decision.ts`
 */
import type { StoredRule } from '../src/links/redirect-rules.js'
import {
  compileRules,
  firstRuleUrl,
  type RuleVisitor,
} from '../src/redirects/targeting/compiled-rules.js'

const visitor: RuleVisitor = {
  time: Date.now(),
  country: 'DE',
  region: null,
  regionCode: null,
  platform: 'Windows',
  device: 'desktop',
  browser: 'Chrome',
  languages: ['de', 'en'],
}

const rule = (i: number): StoredRule => ({
  conditions: [
    { type: 'country', value: 'FR' },
    { type: 'device', value: 'mobile' },
    { type: 'query', key: `k${i}`, value: 'x' },
  ],
  url: `https://example.com/${i}`,
})

for (const count of [0, 5, 50]) {
  const rules = compileRules(
    Array.from({ length: count }, (_, i) => rule(i)),
    (u) => u,
  )
  const decide = () => (rules.length === 0 ? null : firstRuleUrl(rules, visitor, 'utm=a&b=c'))
  for (let i = 0; i < 100_000; i++) decide()
  const runs = 1_000_000
  const start = process.hrtime.bigint()
  for (let i = 0; i < runs; i++) decide()
  const ns = Number(process.hrtime.bigint() - start) / runs
  console.log(`${String(count).padStart(2)} rules: ${ns.toFixed(1)} ns a visit`)
}
