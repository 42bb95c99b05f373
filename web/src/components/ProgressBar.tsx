import { HStack, Progress, Text } from '@chakra-ui/react'
import { toPersianDigits } from '../lib/digits'

export interface ProgressBarProps {
  value: number
  max?: number
  /** Text before the bar, e.g. «ارسال شده». */
  label?: string
  /** Shows the percentage («۴۵٪») after the bar. */
  showValue?: boolean
  colorPalette?: string
  size?: 'xs' | 'sm' | 'md' | 'lg'
}

/** Percentage of value/max, never below 0 or above 100 (spec §9). */
export function progressPercent(value: number, max = 100): number {
  if (!Number.isFinite(value) || !Number.isFinite(max) || max <= 0) return 0
  return Math.min(100, Math.max(0, (value / max) * 100))
}

/** A horizontal progress bar capped at 100%. */
export function ProgressBar({ value, max = 100, label, showValue = false, colorPalette = 'brand', size = 'sm' }: ProgressBarProps) {
  const percent = progressPercent(value, max)
  const text = `${toPersianDigits(Math.round(percent))}٪`
  return (
    <Progress.Root value={percent} max={100} size={size} colorPalette={colorPalette} aria-label={label ?? 'پیشرفت'} aria-valuetext={text}>
      <HStack gap="3">
        {label && <Progress.Label fontSize="sm" flexShrink={0}>{label}</Progress.Label>}
        <Progress.Track flex="1" rounded="full">
          <Progress.Range rounded="full" />
        </Progress.Track>
        {showValue && <Text fontSize="sm" color="fg.muted" minW="10" textAlign="end">{text}</Text>}
      </HStack>
    </Progress.Root>
  )
}
