import { SimpleGrid, Text, chakra } from '@chakra-ui/react'
import type { ComponentType } from 'react'
import type { IconProps } from '@chakra-ui/react'
import { MessageIcon, PhoneIcon, ShieldIcon } from '../../components/outlineIcons'
import type { OtpMethod } from './api'

export const OTP_METHODS: Record<OtpMethod, { label: string; icon: ComponentType<IconProps> }> = {
  sms: { label: 'پیامک', icon: MessageIcon },
  voice: { label: 'تماس صوتی', icon: PhoneIcon },
  app: { label: 'اپلیکیشن احراز هویت', icon: ShieldIcon },
}

interface Props {
  methods: OtpMethod[]
  value: OtpMethod
  onChange: (m: OtpMethod) => void
  disabled?: boolean
}

/** How to receive the one-time code: SMS, voice call or an authenticator app. */
export function OtpMethodPicker({ methods, value, onChange, disabled }: Props) {
  return (
    <SimpleGrid columns={methods.length} gap="2" role="radiogroup" aria-label="روش دریافت کد">
      {methods.map((m) => {
        const { label, icon: Icon } = OTP_METHODS[m]
        const on = m === value
        return (
          <chakra.button
            key={m}
            type="button"
            role="radio"
            aria-checked={on}
            disabled={disabled}
            onClick={() => onChange(m)}
            display="flex"
            flexDirection="column"
            alignItems="center"
            gap="1.5"
            px="2"
            py="3"
            rounded="lg"
            borderWidth="1.5px"
            borderColor={on ? 'brand.solid' : 'app.border'}
            bg={on ? 'brand.subtle' : 'transparent'}
            color={on ? 'brand.fg' : 'fg.muted'}
            cursor="pointer"
            transition="all 0.15s"
            _hover={{ borderColor: 'brand.emphasized' }}
            _disabled={{ opacity: 0.6, cursor: 'not-allowed' }}
            _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}
            data-testid={`otp-method-${m}`}
          >
            <Icon boxSize="5" />
            <Text fontSize="xs" fontWeight={on ? 'bold' : 'medium'} lineHeight="1.4">
              {label}
            </Text>
          </chakra.button>
        )
      })}
    </SimpleGrid>
  )
}
