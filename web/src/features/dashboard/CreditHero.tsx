import { Box, Button, HStack, IconButton, Skeleton, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { BoltIcon, RefreshIcon, WalletIcon } from '../../components/outlineIcons'
import { formatNumber } from '../../lib/format'
import { useMe } from '../../lib/me'
import { useCredit } from '../../lib/credit'

/** Greeting and wallet credit with the two main actions. */
export function CreditHero() {
  const { data: me } = useMe()
  const credit = useCredit()
  return (
    <Box
      position="relative"
      overflow="hidden"
      rounded="card"
      color="white"
      p={{ base: '5', md: '7' }}
      bgGradient="to-bl"
      gradientFrom={{ _light: 'brand.500', _dark: 'brand.700' }}
      gradientTo={{ _light: 'brand.800', _dark: 'brand.950' }}
      shadow="card"
    >
      <Box position="absolute" boxSize="64" rounded="full" bg="whiteAlpha.100" insetInlineEnd="-20" top="-24" />
      <Box position="absolute" boxSize="40" rounded="full" bg="whiteAlpha.100" insetInlineEnd="32" bottom="-24" />
      <Stack gap="5" position="relative">
        <Text fontSize={{ base: 'md', md: 'lg' }} fontWeight="semibold">
          {me?.name ? `سلام ${me.name}، خوش آمدید` : 'خوش آمدید'}
        </Text>
        <Stack gap="1">
          <HStack gap="2" opacity="0.9" fontSize="sm">
            <WalletIcon boxSize="4" />
            <Text>اعتبار کیف پول</Text>
            <IconButton aria-label="به‌روزرسانی اعتبار" size="2xs" variant="ghost" color="white" _hover={{ bg: 'whiteAlpha.200' }} onClick={() => credit.refetch()} loading={credit.isFetching}>
              <RefreshIcon />
            </IconButton>
          </HStack>
          {credit.isPending ? (
            <Skeleton h="10" w="48" variant="shine" />
          ) : (
            <Text fontSize={{ base: '3xl', md: '4xl' }} fontWeight="black" lineHeight="1.2" data-testid="dashboard-credit">
              {credit.isError && credit.data === undefined ? '—' : formatNumber(credit.data ?? 0)}
              <Text as="span" fontSize="md" fontWeight="medium" ms="2" opacity="0.9">
                ریال
              </Text>
            </Text>
          )}
        </Stack>
        <HStack gap="3" wrap="wrap">
          <Button asChild bg="white" color="brand.800" _hover={{ bg: 'brand.50' }}>
            <RouterLink to="/send-sms/quick">
              <BoltIcon /> ارسال سریع
            </RouterLink>
          </Button>
          <Button asChild variant="outline" color="white" borderColor="whiteAlpha.600" _hover={{ bg: 'whiteAlpha.200' }}>
            <RouterLink to="/wallet/credit">افزایش اعتبار</RouterLink>
          </Button>
        </HStack>
      </Stack>
    </Box>
  )
}
