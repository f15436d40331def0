/**
 * The targeting section of the link form: the `target_type` choice and the four lists, whose
 * rows are added and removed by submit buttons (`_action=add_country`, `remove_country_2`)
 * that re-render the form without saving; with htmx they swap this section alone.
 */
import { MAX_TARGET_ENTRIES, PLATFORMS, type TargetList } from '../links/targeting-keys.js'
import { COUNTRY_CODES, LANGUAGE_CODES } from '../shared/iso-codes.js'
import { Errors, Input, Select, type Messages, type Options } from './form-fields.js'
import { rotationShare, type LinkFormValues, type TargetRow } from './link-form.js'

/** Which control a row button's re-render puts the focus on. */
export type FocusHint = { list: TargetList; row: number | 'add' } | null

/** Codes the API accepts, named in English and sorted by name. */
function named(codes: readonly string[], type: 'region' | 'language'): Options {
  const names = new Intl.DisplayNames(['en'], { type, fallback: 'code' })
  const label = (code: string) => {
    const name = names.of(type === 'region' ? code.toUpperCase() : code) ?? code
    return name === code ? code : `${name} (${code})`
  }
  return codes
    .map((code) => [code, label(code)] as const)
    .sort((a, b) => a[1].localeCompare(b[1], 'en'))
}

const KEY_OPTIONS: Record<Exclude<TargetList, 'rotation'>, Options> = {
  country: named(COUNTRY_CODES, 'region'),
  platform: PLATFORMS.map((p) => [p, p] as const),
  language: named(LANGUAGE_CODES, 'language'),
}

const LISTS: { list: TargetList; title: string; key: string }[] = [
  { list: 'country', title: 'Countries', key: 'Country' },
  { list: 'platform', title: 'Platforms', key: 'Platform' },
  { list: 'language', title: 'Languages', key: 'Language' },
  { list: 'rotation', title: 'Rotation', key: '' },
]

/** With htmx, a row button swaps only the targeting section; without it, the page reloads. */
function rowButtonAttributes(action: string) {
  return {
    'hx-post': action,
    'hx-target': '#targeting',
    'hx-select': '#targeting',
    'hx-swap': 'outerHTML',
  }
}

function TargetRows(props: {
  list: TargetList
  title: string
  keyLabel: string
  rows: TargetRow[]
  errors: Messages
  action: string
  focus: FocusHint
}) {
  const { list } = props
  // At least one row, ready to fill (an empty row is no entry: the API drops it), and no more
  // rows than a list may have (a longer list sent is refused with a message above them).
  const rows =
    props.rows.length > 0 ? props.rows.slice(0, MAX_TARGET_ENTRIES) : [{ key: '', value: '' }]
  return (
    <fieldset class="targets" id={`targets-${list}`}>
      <legend>{props.title}</legend>
      <Errors id={list} messages={props.errors[list]} />
      {rows.map((row, i) => {
        const focused = props.focus?.list === list && props.focus.row === i
        return (
          <div class={list === 'rotation' ? 'target-row values-only' : 'target-row'} key={i}>
            {list !== 'rotation' ? (
              <Select
                name={`${list}[${i}][key]`}
                field={`${list}.${i}.key`}
                label={`${props.keyLabel} ${i + 1}`}
                value={row.key}
                options={[['', '—'], ...KEY_OPTIONS[list]]}
                errors={props.errors}
                autofocus={focused || undefined}
              />
            ) : null}
            <Input
              name={`${list}[${i}][value]`}
              field={`${list}.${i}.value`}
              label={list === 'rotation' ? `Destination ${i + 1}` : 'Destination'}
              value={row.value}
              inputMode="url"
              placeholder="https://"
              errors={props.errors}
              autofocus={(focused && list === 'rotation') || undefined}
            />
            {list === 'rotation' ? (
              <Input
                name={`rotation[${i}][weight]`}
                field={`rotation.${i}.weight`}
                label={`Weight ${i + 1}`}
                value={row.weight ?? ''}
                inputMode="numeric"
                placeholder="1–100"
                errors={props.errors}
              />
            ) : null}
            <button
              type="submit"
              class="secondary-button row-button"
              name="_action"
              value={`remove_${list}_${i}`}
              aria-label={`Remove ${props.title.toLowerCase()} row ${i + 1}`}
              {...rowButtonAttributes(props.action)}
            >
              Remove
            </button>
          </div>
        )
      })}
      {list === 'rotation' ? (
        <p class="muted small" id="rotation-share" aria-live="polite">
          {rotationShare(rows)}
        </p>
      ) : null}
      {rows.length < MAX_TARGET_ENTRIES ? (
        <button
          type="submit"
          class="secondary-button"
          name="_action"
          value={`add_${list}`}
          autofocus={(props.focus?.list === list && props.focus.row === 'add') || undefined}
          {...rowButtonAttributes(props.action)}
        >
          Add {list === 'rotation' ? 'destination' : props.keyLabel.toLowerCase()}
        </button>
      ) : (
        <p class="muted small" id={`${list}-full`}>
          A list takes at most {MAX_TARGET_ENTRIES} rows.
        </p>
      )}
    </fieldset>
  )
}

/**
 * The targeting section: the one part a row button's htmx request swaps. Only the list of the
 * chosen type shows (the stylesheet follows the select, with or without JavaScript).
 */
export function Targeting(props: {
  values: LinkFormValues
  errors: Messages
  action: string
  focus: FocusHint
}) {
  const { values, errors, action } = props
  return (
    <div class="targeting" id="targeting">
      <Select
        name="target_type"
        label="Send visitors by"
        value={values.target_type}
        options={[
          ['0', 'Off: always the destination URL'],
          ['1', 'Country'],
          ['2', 'Platform'],
          ['3', 'Language'],
          ['4', 'Rotation (in turn)'],
        ]}
        errors={errors}
        hint="Only the chosen list is used; the others are kept."
      />
      {LISTS.map(({ list, title, key }) => (
        <TargetRows
          key={list}
          list={list}
          title={title}
          keyLabel={key}
          rows={values[list]}
          errors={errors}
          action={action}
          focus={props.focus}
        />
      ))}
    </div>
  )
}
