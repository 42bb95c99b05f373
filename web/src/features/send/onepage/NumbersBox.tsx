import { Badge, Button, Field, HStack, Text, Textarea } from '@chakra-ui/react'
import { formatNumber } from '../../../lib/format'
import { toPersianDigits } from '../../../lib/digits'
import type { ParsedNumbers } from './numbers'

interface Props {
  value: string
  onChange: (text: string) => void
  parsed: ParsedNumbers
  error?: string
}

/** How many invalid entries are listed under the box. */
const SHOWN_INVALID = 5

/**
 * The numbers of a one-page send: paste or type any number of mobiles, separated any
 * way, in any digits; the counts of valid, invalid and repeated ones update as you type.
 */
export function NumbersBox({ value, onChange, parsed, error }: Props) {
  const { valid, invalid, duplicates } = parsed
  const tidy = () => onChange(valid.map((n) => `0${n.slice(2)}`).join('\n'))
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>شماره‌های گیرنده</Field.Label>
      <Textarea
        value={value}
        onChange={(e) => onChange(e.target.value)}
        dir="ltr"
        rows={6}
        autoresize
        maxH="60"
        fontFamily="mono"
        placeholder={'۰۹۱۲۱۲۳۴۵۶۷\n۰۹۳۵۱۲۳۴۵۶۷، ۹۱۹۱۲۳۴۵۶۷'}
        data-testid="numbers-box"
      />
      {error ? (
        <Field.ErrorText>{error}</Field.ErrorText>
      ) : (
        <Field.HelperText>هر تعداد شماره را بنویسید یا الصاق کنید؛ با خط جدید، ویرگول، فاصله یا هر جداکننده دیگر.</Field.HelperText>
      )}
      <HStack gap="2" wrap="wrap" mt="1" aria-live="polite">
        <Badge colorPalette="green" variant="subtle" data-testid="numbers-valid" data-count={valid.length}>
          {`معتبر: ${formatNumber(valid.length)}`}
        </Badge>
        <Badge colorPalette="red" variant="subtle" data-testid="numbers-invalid" data-count={invalid.length}>
          {`نامعتبر: ${formatNumber(invalid.length)}`}
        </Badge>
        <Badge colorPalette="orange" variant="subtle" data-testid="numbers-duplicates" data-count={duplicates}>
          {`تکراری: ${formatNumber(duplicates)}`}
        </Badge>
        {(invalid.length > 0 || duplicates > 0) && (
          <Button size="xs" variant="ghost" colorPalette="brand" onClick={tidy} data-testid="numbers-tidy">
            حذف نامعتبرها و تکراری‌ها
          </Button>
        )}
      </HStack>
      {invalid.length > 0 && (
        <Text fontSize="xs" color="fg.error" mt="1">
          {`نامعتبر: ${invalid.slice(0, SHOWN_INVALID).map((s) => `«${toPersianDigits(s)}»`).join('، ')}${invalid.length > SHOWN_INVALID ? ' و …' : ''}`}
        </Text>
      )}
    </Field.Root>
  )
}

