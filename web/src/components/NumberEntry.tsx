import { Button, Field, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react'
import { useId, useState, type KeyboardEvent } from 'react'
import { onlyDigits } from '../lib/digits'
import { formatNumber } from '../lib/format'
import { isValidMobile, normalizeMobile } from '../lib/paste'
import { PasteIcon, PlusIcon } from './icons'
import { NumberChips } from './NumberChips'
import { PasteNumbersDialog } from './PasteNumbersDialog'

export const NUMBER_MAX_LENGTH = 12
export const PREFIX_MAX_LENGTH = 6

export const NUMBER_MESSAGES = {
  duplicate: 'این شماره قبلا وارد شده است',
  invalid: 'شماره معتبر نیست',
  prefixZero: 'پیشوند نباید با صفر شروع شود',
} as const

export interface NumberEntryProps {
  value: string[]
  onChange: (numbers: string[]) => void
  label?: string
  placeholder?: string
  /** Prefix mode: at most 6 digits, no leading zero, a single prefix. */
  prefixMode?: boolean
  /** Mobile validation: 98 is prepended and numbers failing ^989\d{9}$ go to the invalid list. */
  validateMobile?: boolean
  /** Most numbers that may be entered (unlimited by default); the input is disabled at the cap. */
  maxCount?: number
  /** Shows the «الصاق شماره‌ها» dialog button (default: on, except in prefix mode). */
  allowPaste?: boolean
  onInvalidChange?: (invalid: string[]) => void
  disabled?: boolean
  helperText?: string
}

const ALLOWED_KEYS = new Set(['Backspace', 'Delete', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Tab', 'Home', 'End', 'Enter'])

/** Phone inputs accept only digit keys, editing and navigation keys and copy/paste/select-all shortcuts. */
export function isAllowedPhoneKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'>): boolean {
  if (ALLOWED_KEYS.has(e.key) || /^[0-9۰-۹٠-٩]$/.test(e.key)) return true
  return (e.ctrlKey || e.metaKey) && ['a', 'c', 'v', 'x', 'z'].includes(e.key.toLowerCase())
}

/** A phone field that collects numbers as chips, with a paste dialog (spec §5 Number entry). */
export function NumberEntry({
  value, onChange, label = 'شماره‌ها', placeholder, prefixMode = false, validateMobile = false,
  maxCount = Infinity, allowPaste = !prefixMode, onInvalidChange, disabled = false, helperText,
}: NumberEntryProps) {
  const id = useId()
  const [input, setInput] = useState('')
  const [error, setError] = useState('')
  const [invalid, setInvalid] = useState<string[]>([])
  const [pasteOpen, setPasteOpen] = useState(false)
  const cap = prefixMode ? Math.min(1, maxCount) : maxCount
  const full = value.length >= cap
  const maxLength = prefixMode ? PREFIX_MAX_LENGTH : NUMBER_MAX_LENGTH

  const updateInvalid = (next: string[]) => {
    setInvalid(next)
    onInvalidChange?.(next)
  }

  const add = () => {
    const raw = onlyDigits(input)
    if (!raw || full) return
    if (prefixMode && raw.startsWith('0')) return setError(NUMBER_MESSAGES.prefixZero)
    const number = validateMobile ? normalizeMobile(raw) : raw
    if (validateMobile && !isValidMobile(number)) {
      if (!invalid.includes(number)) updateInvalid([...invalid, number])
      setInput('')
      return setError(NUMBER_MESSAGES.invalid)
    }
    if (value.includes(number)) return setError(NUMBER_MESSAGES.duplicate)
    onChange([...value, number])
    setInput('')
    setError('')
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault()
      add()
    } else if (!isAllowedPhoneKey(e)) e.preventDefault()
  }

  const count = Number.isFinite(cap) ? `${formatNumber(value.length)} از ${formatNumber(cap)}` : formatNumber(value.length)

  return (
    <Stack gap="3">
      <Field.Root invalid={!!error} disabled={disabled || full}>
        <Field.Label htmlFor={id}>{label}</Field.Label>
        <HStack w="full" gap="2" align="stretch">
          <Input
            id={id}
            type="tel"
            dir="ltr"
            textAlign="end"
            inputMode="numeric"
            autoComplete="off"
            maxLength={maxLength}
            placeholder={placeholder ?? (prefixMode ? 'پیشوند' : '۰۹۱۲۱۲۳۴۵۶۷')}
            value={input}
            onChange={(e) => {
              setInput(onlyDigits(e.target.value).slice(0, maxLength))
              setError('')
            }}
            onKeyDown={onKeyDown}
          />
          <IconButton aria-label="افزودن شماره" variant="outline" onClick={add} disabled={disabled || full || !input}>
            <PlusIcon />
          </IconButton>
          {allowPaste && (
            <Button variant="outline" onClick={() => setPasteOpen(true)} disabled={disabled || full}>
              <PasteIcon />
              الصاق شماره‌ها
            </Button>
          )}
        </HStack>
        {error ? (
          <Field.ErrorText>{error}</Field.ErrorText>
        ) : (
          <Field.HelperText>
            {full ? `حداکثر ${formatNumber(cap)} ${prefixMode ? 'پیشوند' : 'شماره'} مجاز است` : (helperText ?? 'برای افزودن، Enter را بزنید')}
          </Field.HelperText>
        )}
      </Field.Root>
      {value.length > 0 && (
        <Stack gap="2">
          <Text fontSize="sm" color="fg.muted">{`تعداد: ${count}`}</Text>
          <NumberChips label="شماره‌های واردشده" numbers={value} onRemove={(_, i) => onChange(value.filter((__, j) => j !== i))} />
        </Stack>
      )}
      {invalid.length > 0 && (
        <Stack gap="2">
          <Text fontSize="sm" color="fg.error">{`${NUMBER_MESSAGES.invalid} (${formatNumber(invalid.length)})`}</Text>
          <NumberChips label="شماره‌های نامعتبر" colorPalette="red" numbers={invalid} onRemove={(_, i) => updateInvalid(invalid.filter((__, j) => j !== i))} />
        </Stack>
      )}
      {allowPaste && (
        <PasteNumbersDialog
          open={pasteOpen}
          onClose={() => setPasteOpen(false)}
          existing={value}
          remaining={cap - value.length}
          onConfirm={(numbers) => onChange([...value, ...numbers])}
        />
      )}
    </Stack>
  )
}
