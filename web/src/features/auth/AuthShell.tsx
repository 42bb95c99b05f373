import { Box, Center, Flex, HStack, Heading, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { OldPanelBanner } from '../../components/OldPanelBanner'
import { SendIcon } from '../../components/outlineIcons'
import { ThemeToggle } from '../../components/ThemeToggle'

interface Props {
  title: string
  subtitle?: ReactNode
  /** The branded text of the side panel (login_setting on the login page). */
  brandTitle?: string
  brandDescription?: string
  /** Shows the dismissible «old panel» strip above the page (the login page, spec §1). */
  oldPanel?: boolean
  children: ReactNode
}

const FEATURES = ['ارسال سریع و انبوه به همه اپراتورها', 'گزارش لحظه‌ای تحویل پیامک', 'الگو، منشی و وب‌سرویس برای کسب‌وکارها']

/** Two-column auth page: brand panel (desktop) and the form card. */
export function AuthShell({ title, subtitle, brandTitle, brandDescription, oldPanel, children }: Props) {
  return (
    <Flex direction="column" minH="100dvh" bg="app.canvas">
      {oldPanel && <OldPanelBanner />}
      <Flex flex="1">
        <Flex
          display={{ base: 'none', lg: 'flex' }}
          direction="column"
          justify="space-between"
          w="44%"
          maxW="560px"
          p="12"
          color="white"
          bgGradient="to-br"
          gradientFrom={{ _light: 'brand.600', _dark: 'brand.800' }}
          gradientTo={{ _light: 'brand.900', _dark: 'brand.950' }}
          position="relative"
          overflow="hidden"
        >
          <HStack gap="3">
            <Center boxSize="12" rounded="2xl" bg="whiteAlpha.200">
              <SendIcon boxSize="6" transform="scaleX(-1)" />
            </Center>
            <Text fontSize="2xl" fontWeight="black">
              چاپار
            </Text>
          </HStack>
          <Stack gap="5" position="relative" zIndex="1">
            <Heading size="3xl" lineHeight="1.4" data-testid="login-brand-title">
              {brandTitle || 'سامانه ارسال پیامک چاپار'}
            </Heading>
            <Text fontSize="md" opacity="0.9" lineHeight="tall" whiteSpace="pre-line" data-testid="login-brand-description">
              {brandDescription || 'پیام شما، در لحظه به دست مخاطبانتان می‌رسد.'}
            </Text>
            <Stack gap="2.5" mt="2">
              {FEATURES.map((f) => (
                <HStack key={f} gap="2.5" fontSize="sm">
                  <Box boxSize="2" rounded="full" bg="brand.300" />
                  <Text>{f}</Text>
                </HStack>
              ))}
            </Stack>
          </Stack>
          <Text fontSize="xs" opacity="0.7">
            © چاپار — پیامک برای کسب‌وکارها
          </Text>
          <Box position="absolute" boxSize="96" rounded="full" bg="whiteAlpha.100" insetInlineEnd="-32" bottom="-32" />
        </Flex>
        <Flex flex="1" direction="column" align="center" justify="center" px="4" py="10" position="relative">
          <Box position="absolute" top="4" insetInlineEnd="4">
            <ThemeToggle />
          </Box>
          <Box w="full" maxW="420px">
            <HStack gap="2.5" mb="6" display={{ base: 'flex', lg: 'none' }} justify="center">
              <Center boxSize="10" rounded="xl" bg="brand.solid" color="white">
                <SendIcon boxSize="5" transform="scaleX(-1)" />
              </Center>
              <Text fontSize="xl" fontWeight="black">
                چاپار
              </Text>
            </HStack>
            <Box bg="app.surface" borderWidth="1px" borderColor="app.border" rounded="2xl" shadow="card" p={{ base: '5', md: '8' }}>
              <Stack gap="1" mb="6">
                <Heading as="h1" size="xl">
                  {title}
                </Heading>
                {subtitle && (
                  <Text color="app.muted" fontSize="sm">
                    {subtitle}
                  </Text>
                )}
              </Stack>
              {children}
            </Box>
            {brandDescription && (
              <Text display={{ base: 'block', lg: 'none' }} mt="5" textAlign="center" fontSize="sm" color="app.muted" whiteSpace="pre-line">
                {brandDescription}
              </Text>
            )}
          </Box>
        </Flex>
      </Flex>
    </Flex>
  )
}
