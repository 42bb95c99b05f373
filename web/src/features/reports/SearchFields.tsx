import { Field, Input, InputGroup } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { useDebouncedValue } from '../../components/hooks'
import { SearchIcon } from '../../components/icons'
import { SEARCH_FILTER_DEBOUNCE_MS } from '../../components/TableFilters'
import { toPersianDigits } from '../../lib/digits'
import { isValidMobile, normalizeMobile } from '../../lib/paste'

interface Props {
  /** The URL's value ('' none). */
  value: string
  onChange: (value: string) => void
  label: string
  testId: string
}

/**
 * A mobile to look up, written any way (0912…, 912…, +98912…, Persian digits, spaces):
 * written to the URL as 0912… once it is a whole number, cleared when emptied; an
 * unfinished number waits with a hint instead of asking the server.
 */
export function MobileSearchField({ value, onChange, label, testId }: Props) {
  const [text, setText] = useState(value ? toPersianDigits(value) : '')
  useEffect(() => setText(value ? toPersianDigits(value) : ''), [value])
  const number = normalizeMobile(text)
  const whole = isValidMobile(number)
  const edit = (next: string) => {
    setText(next)
    const n = normalizeMobile(next)
    if (!next.trim()) onChange('')
    else if (isValidMobile(n) && `0${n.slice(2)}` !== value) onChange(`0${n.slice(2)}`)
  }
  return (
    <Field.Root invalid={!!text.trim() && !whole} w={{ base: 'full', md: '56' }}>
      <InputGroup startElement={<SearchIcon boxSize="4" color="fg.subtle" />}>
        <Input size="sm" type="search" inputMode="tel" aria-label={label} placeholder={label} value={text} onChange={(e) => edit(e.target.value)} data-testid={testId} />
      </InputGroup>
      {!!text.trim() && !whole && <Field.ErrorText fontSize="xs">شماره را کامل بنویسید، مثلا ۰۹۱۲۱۲۳۴۵۶۷</Field.ErrorText>}
    </Field.Root>
  )
}

/** A piece of the message text to look for, written to the URL once the typing settles. */
export function TextSearchField({ value, onChange, label, testId }: Props) {
  const [text, setText] = useState(value)
  const settled = useDebouncedValue(text, SEARCH_FILTER_DEBOUNCE_MS)
  useEffect(() => setText(value), [value])
  useEffect(() => {
    if (settled.trim() !== value) onChange(settled.trim())
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a settled edit is written; value changing from outside is synced above
  }, [settled])
  return (
    <InputGroup startElement={<SearchIcon boxSize="4" color="fg.subtle" />} w={{ base: 'full', md: '64' }}>
      <Input size="sm" type="search" aria-label={label} placeholder={label} value={text} maxLength={200} onChange={(e) => setText(e.target.value)} data-testid={testId} />
    </InputGroup>
  )
}
