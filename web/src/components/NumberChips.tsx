import { Tag, Wrap } from '@chakra-ui/react'
import { displayMobile } from '../lib/mobile'

export interface NumberChipsProps {
  numbers: string[]
  onRemove?: (number: string, index: number) => void
  colorPalette?: string
  /** Accessible name of the list, e.g. «شماره‌های واردشده». */
  label: string
}

/** Numbers as removable chips with Persian digits. */
export function NumberChips({ numbers, onRemove, colorPalette = 'gray', label }: NumberChipsProps) {
  if (numbers.length === 0) return null
  return (
    <Wrap as="ul" aria-label={label} gap="1.5" listStyleType="none" m="0" p="0">
      {numbers.map((n, i) => (
        <Tag.Root as="li" key={`${n}-${i}`} size="lg" variant="surface" colorPalette={colorPalette} rounded="full">
          <Tag.Label dir="ltr">{displayMobile(n)}</Tag.Label>
          {onRemove && (
            <Tag.EndElement>
              <Tag.CloseTrigger aria-label={`حذف ${displayMobile(n)}`} onClick={() => onRemove(n, i)} />
            </Tag.EndElement>
          )}
        </Tag.Root>
      ))}
    </Wrap>
  )
}
