import { Alert, Button, Field, HStack, Stack, Switch, Text, Textarea, Wrap } from '@chakra-ui/react'
import { useId, useRef, useState, type ClipboardEvent } from 'react'
import { toPersianDigits } from '../lib/digits'
import { formatNumber } from '../lib/format'
import { countSegments, MAX_TEXT } from '../lib/segments'
import { sizeLinks, useLinkSettings } from '../lib/links'
import { allows, useAcl } from '../lib/acl'
import { useAssistantChat } from '../lib/assistant'
import { AssistantPanel } from './assistant/AssistantPanel'
import { SparkleIcon } from './icons'
import { PredefinedPicker } from './PredefinedPicker'
import { TrackedLinkPicker } from './TrackedLinkPicker'

/** A keyword tag of the editor: `keyword` is inserted as `{keyword}`; `col` names the column ex_{col}. */
export interface EditorKeyword {
  keyword: string
  col: string | number
}

/**
 * «تعداد کاراکتر: ۱۲ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۵۸». The «لغو۱۱» footer counts only
 * once there is text: an empty message is ۰ characters in ۰ parts.
 */
export function counterText(text: string, cancel11: boolean): string {
  const c = countSegments(text, cancel11 && text !== '')
  return `تعداد کاراکتر: ${formatNumber(c.characters)} | بخش‌ها: ${formatNumber(c.parts)} | باقیمانده تا بخش بعد: ${formatNumber(c.chars_left)}`
}

/**
 * Puts `insert` in place of text[start, end), cut so the result holds at most `max` characters
 * (code points, so an emoji is never halved). Returns the new text and the caret position.
 */
export function insertLimited(text: string, insert: string, start: number, end: number, max: number): { text: string; caret: number } {
  const before = text.slice(0, start)
  const after = text.slice(end)
  const room = Math.max(0, max - [...before].length - [...after].length)
  const piece = [...insert].slice(0, room).join('')
  return { text: before + piece + after, caret: before.length + piece.length }
}

/** Why the «لغو۱۱» switch is locked on an advertising line. */
export const ADVERTISING_CANCEL11_REASON = 'در خطوط تبلیغاتی، افزودن «لغو۱۱» طبق مقررات اپراتورها الزامی است و نمی‌توان آن را برداشت.'

/**
 * The warning when the «لغو۱۱» footer pushes the text into one more (paid) part:
 * «افزودن «لغو۱۱» پیامک را ۲ بخشی می‌کند»; null when the footer fits.
 */
export function footerPartWarning(text: string, cancel11: boolean): string | null {
  if (!cancel11 || text === '') return null
  const withFooter = countSegments(text, true).parts
  if (withFooter <= countSegments(text, false).parts) return null
  return `افزودن «لغو۱۱» پیامک را ${formatNumber(withFooter)} بخشی می‌کند`
}

/** What a paste, insert or typing beyond the limit cut off. */
export interface TextCut {
  removed: number
  limit: number
}

/** «۳۰۰ کاراکتر حذف شد: متن پیامک حداکثر ۲٬۷۰۰ کاراکتر است.» */
export const cutText = (c: TextCut) =>
  `${formatNumber(c.removed)} کاراکتر از متن حذف شد؛ متن پیامک حداکثر ${formatNumber(c.limit)} کاراکتر است.`

/** Code points dropped between what was wanted and what was kept. */
const lost = (wanted: string, kept: string) => [...wanted].length - [...kept].length

/** Column name of a keyword's column in an uploaded file. */
export const keywordColumn = (k: EditorKeyword) => `ex_${k.col}`

export interface MessageEditorProps {
  value: string
  onChange: (value: string) => void
  label?: string
  placeholder?: string
  /** Tag buttons inserting `{keyword}` at the caret. */
  keywords?: EditorKeyword[]
  /** Whether the «لغو۱۱» footer is appended (it counts toward the parts). */
  cancel11?: boolean
  /** With a handler the cancel-11 switch can be toggled; without, it only shows the state. */
  onCancel11Change?: (value: boolean) => void
  /** Why the switch is locked (shown under it and as its tooltip), e.g. ADVERTISING_CANCEL11_REASON. */
  cancel11LockedReason?: string
  showCancel11?: boolean
  maxLength?: number
  disabled?: boolean
  invalid?: boolean
  errorText?: string
  rows?: number
  /** How a tag is written into the text: `{keyword}` by default; patterns use `%name%`. */
  formatTag?: (keyword: string) => string
  /** Shows «درج متن آماده»: a picker of the account's predefined messages that inserts at the caret. */
  predefined?: boolean
  /** Shows «درج لینک ردیابی»: inserts a tracked link ({link:ID}); the counter counts it at its sent length. */
  trackedLinks?: boolean
  /** Shows «دستیار هوشمند نگارش», the AI writing assistant's side panel (on by default). */
  assistant?: boolean
}

/** The SMS text editor: plain-text paste, keyword tags, cancel-11 switch and a live part counter. */
export function MessageEditor({
  value, onChange, label = 'متن پیامک', placeholder = 'متن پیامک را بنویسید', keywords = [], cancel11 = false,
  onCancel11Change, cancel11LockedReason, showCancel11 = true, maxLength = MAX_TEXT, disabled, invalid, errorText, rows = 6, predefined,
  trackedLinks, formatTag = (k) => `{${k}}`, assistant = true,
}: MessageEditorProps) {
  const id = useId()
  const [picking, setPicking] = useState(false)
  const [linking, setLinking] = useState(false)
  const [assisting, setAssisting] = useState(false)
  const chat = useAssistantChat()
  // The assistant answers only those who may compose sends (POST /panel/agent needs send.create).
  const acl = useAcl()
  const canAssist = assistant && allows(acl.data, 'send.create')
  const linkSettings = useLinkSettings(!!trackedLinks && value.includes('{link:'))
  const counted = sizeLinks(value, linkSettings.data?.link_length ?? 0)
  const ref = useRef<HTMLTextAreaElement>(null)
  const length = [...value].length
  const [cut, setCut] = useState<TextCut | null>(null)
  /** Passes on text already cut to the limit, saying what was cut (or clearing the notice). */
  const change = (wanted: string, kept: string) => {
    const removed = lost(wanted, kept)
    setCut(removed > 0 ? { removed, limit: maxLength } : null)
    onChange(kept)
  }
  const limited = (t: string) => change(t, [...t].slice(0, maxLength).join(''))

  const replaceSelection = (insert: string) => {
    const el = ref.current
    const start = el?.selectionStart ?? value.length
    const end = el?.selectionEnd ?? value.length
    const next = insertLimited(value, insert, start, end, maxLength)
    change(value.slice(0, start) + insert + value.slice(end), next.text)
    requestAnimationFrame(() => {
      el?.focus()
      el?.setSelectionRange(next.caret, next.caret)
    })
  }

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    e.preventDefault()
    replaceSelection(e.clipboardData.getData('text/plain'))
  }

  return (
    <Stack gap="2">
      <Field.Root invalid={invalid} disabled={disabled}>
        <Field.Label htmlFor={id}>{label}</Field.Label>
        <Textarea
          id={id}
          ref={ref}
          rows={rows}
          resize="vertical"
          placeholder={placeholder}
          value={value}
          onChange={(e) => limited(e.target.value)}
          onPaste={onPaste}
          aria-describedby={`${id}-counter`}
        />
        {invalid && errorText && <Field.ErrorText>{errorText}</Field.ErrorText>}
      </Field.Root>
      {canAssist && (
        <>
          <Button size="xs" variant="outline" colorPalette="brand" alignSelf="flex-start" disabled={disabled} onClick={() => setAssisting(true)} data-testid="assistant-open">
            <SparkleIcon /> دستیار هوشمند نگارش
          </Button>
          <AssistantPanel
            open={assisting}
            onClose={() => setAssisting(false)}
            chat={chat}
            draft={value}
            cancel11={cancel11}
            onUse={(t) => {
              limited(t)
              setAssisting(false)
            }}
          />
        </>
      )}
      {predefined && (
        <>
          <Button size="xs" variant="outline" alignSelf="flex-start" disabled={disabled} onClick={() => setPicking(true)} data-testid="predefined-open">
            درج متن آماده
          </Button>
          <PredefinedPicker open={picking} onClose={() => setPicking(false)} onPick={(m) => replaceSelection(m.text)} />
        </>
      )}
      {trackedLinks && (
        <>
          <Button size="xs" variant="outline" alignSelf="flex-start" disabled={disabled} onClick={() => setLinking(true)} data-testid="tracked-link-open">
            درج لینک ردیابی
          </Button>
          <TrackedLinkPicker open={linking} onClose={() => setLinking(false)} onPick={(l) => replaceSelection(l.placeholder)} />
        </>
      )}
      {keywords.length > 0 && (
        <Wrap gap="1.5" role="group" aria-label="درج برچسب">
          {keywords.map((k) => (
            <Button
              key={`${k.keyword}-${k.col}`}
              size="xs"
              variant="subtle"
              colorPalette="brand"
              disabled={disabled}
              title={k.col === '' ? undefined : `ستون ${keywordColumn(k)}`}
              aria-label={`درج برچسب ${k.keyword}`}
              onClick={() => replaceSelection(formatTag(k.keyword))}
            >
              {formatTag(k.keyword)}
            </Button>
          ))}
        </Wrap>
      )}
      {cut && (
        <Alert.Root status="warning" size="sm" rounded="md" data-testid="text-cut">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{cutText(cut)}</Alert.Title>
        </Alert.Root>
      )}
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Text id={`${id}-counter`} fontSize="sm" color="fg.muted" aria-live="polite">
          {counterText(counted, cancel11)}
        </Text>
        <Text fontSize="xs" color={length >= maxLength ? 'fg.error' : 'fg.subtle'}>
          {`${toPersianDigits(length)} / ${toPersianDigits(maxLength)}`}
        </Text>
      </HStack>
      {showCancel11 && (
        <Cancel11Field
          text={counted}
          checked={cancel11}
          disabled={disabled}
          onChange={onCancel11Change}
          lockedReason={onCancel11Change ? undefined : cancel11LockedReason}
        />
      )}
    </Stack>
  )
}

interface Cancel11Props {
  text: string
  checked: boolean
  disabled?: boolean
  onChange?: (value: boolean) => void
  lockedReason?: string
}

/** The «لغو۱۱» switch, why it is locked, and the warning when the footer adds a part. */
function Cancel11Field({ text, checked, disabled, onChange, lockedReason }: Cancel11Props) {
  const warning = footerPartWarning(text, checked)
  const reasonId = useId()
  return (
    <Stack gap="1">
      <Switch.Root
        size="sm"
        colorPalette="brand"
        checked={checked}
        disabled={disabled || !onChange}
        onCheckedChange={(e) => onChange?.(e.checked)}
        title={lockedReason}
      >
        <Switch.HiddenInput aria-describedby={lockedReason ? reasonId : undefined} />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label fontSize="sm">افزودن «لغو۱۱» به انتهای پیام (۶ کاراکتر)</Switch.Label>
      </Switch.Root>
      {lockedReason && (
        <Text id={reasonId} fontSize="xs" color="fg.muted" data-testid="cancel11-locked">
          {lockedReason}
        </Text>
      )}
      {warning && (
        <Text fontSize="xs" color="fg.warning" data-testid="cancel11-warning">
          {warning}؛ یک بخش بیشتر هزینه دارد.
        </Text>
      )}
    </Stack>
  )
}
