import { Box, Flex, Text, VisuallyHidden } from '@chakra-ui/react'
import { toPersianDigits } from '../lib/digits'
import { CheckIcon, CloseIcon } from './icons'

export type StepStatus = 'done' | 'current' | 'pending' | 'success' | 'failure'

export const DEFAULT_WIZARD_STEPS = ['انتخاب روش ارسال', 'متن و تنظیمات', 'بررسی نهایی'] as const

const STATUS_TEXT: Record<StepStatus, string> = {
  done: 'انجام شده',
  current: 'مرحله فعلی',
  pending: 'در انتظار',
  success: 'موفق',
  failure: 'ناموفق',
}

/** The state of step `index` (0-based) when `current` is active and the last step may have a result. */
export function getStepStatus(index: number, current: number, total: number, result?: 'success' | 'failure'): StepStatus {
  if (result && index === total - 1 && current >= total - 1) return result
  if (index < current) return 'done'
  return index === current ? 'current' : 'pending'
}

export interface WizardStepperProps {
  /** Step titles; the send wizard's three steps by default. */
  steps?: readonly string[]
  /** The active step, 0-based. */
  current: number
  /** Outcome shown on the last step. */
  result?: 'success' | 'failure'
}

const circle: Record<StepStatus, { bg: string; color: string; borderColor: string }> = {
  done: { bg: 'brand.solid', color: 'brand.contrast', borderColor: 'brand.solid' },
  current: { bg: 'bg', color: 'brand.fg', borderColor: 'brand.solid' },
  pending: { bg: 'bg', color: 'fg.subtle', borderColor: 'border' },
  success: { bg: 'green.solid', color: 'green.contrast', borderColor: 'green.solid' },
  failure: { bg: 'red.solid', color: 'red.contrast', borderColor: 'red.solid' },
}

/** The send wizard's stepper: each step current, done or pending; success or failure on the last. */
export function WizardStepper({ steps = DEFAULT_WIZARD_STEPS, current, result }: WizardStepperProps) {
  return (
    <Flex as="ol" aria-label="مراحل ارسال" align="flex-start" w="full" listStyleType="none" m="0" p="0">
      {steps.map((title, i) => {
        const status = getStepStatus(i, current, steps.length, result)
        return (
          <Flex
            as="li"
            key={title}
            flex="1"
            direction="column"
            align="center"
            position="relative"
            gap="2"
            aria-current={status === 'current' ? 'step' : undefined}
            data-status={status}
          >
            {i > 0 && (
              <Box
                aria-hidden
                position="absolute"
                top="4"
                insetInlineEnd="calc(50% + 1.25rem)"
                insetInlineStart="calc(-50% + 1.25rem)"
                h="2px"
                bg={i <= current ? 'brand.solid' : 'border'}
              />
            )}
            <Flex
              boxSize="8"
              rounded="full"
              borderWidth="2px"
              align="center"
              justify="center"
              fontWeight="bold"
              fontSize="sm"
              {...circle[status]}
            >
              {status === 'done' || status === 'success' ? (
                <CheckIcon boxSize="4" />
              ) : status === 'failure' ? (
                <CloseIcon boxSize="4" />
              ) : (
                toPersianDigits(i + 1)
              )}
            </Flex>
            <Text fontSize="sm" textAlign="center" fontWeight={status === 'current' ? 'bold' : 'normal'} color={status === 'pending' ? 'fg.muted' : 'fg'}>
              {title}
              <VisuallyHidden>{` (${STATUS_TEXT[status]})`}</VisuallyHidden>
            </Text>
          </Flex>
        )
      })}
    </Flex>
  )
}
