import { Center, HStack, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { SendIcon } from '../../components/outlineIcons'

/** Chapar's mark and name. */
export function Brand({ subtitle = true }: { subtitle?: boolean }) {
  return (
    <HStack asChild gap="2.5" _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }} rounded="md">
      <RouterLink to="/dashboard" aria-label="چاپار — پیشخوان">
        <Center boxSize="10" rounded="xl" bgGradient="to-br" gradientFrom="brand.500" gradientTo="brand.700" color="white" shadow="sm">
          <SendIcon boxSize="5" transform="scaleX(-1)" />
        </Center>
        <Stack gap="0" lineHeight="1.2">
          <Text fontWeight="black" fontSize="lg" color="fg">
            چاپار
          </Text>
          {subtitle && (
            <Text fontSize="xs" color="app.muted">
              سامانه ارسال پیامک
            </Text>
          )}
        </Stack>
      </RouterLink>
    </HStack>
  )
}
