import { HStack, IconButton, Skeleton, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { formatNumber } from '../../lib/format'
import { useCredit } from '../../lib/credit'
import { PlusIcon, RefreshIcon, WalletIcon } from '../../components/outlineIcons'
import { allows, useAcl } from '../../lib/acl'
import { routePermission } from './menu'

/**
 * Header credit: floored rials in Persian digits, a refresh button and a link to the wallet.
 * Shown only to roles that may open the wallet; «افزایش اعتبار» only to those who may pay.
 */
export function CreditChip({ compact = false }: { compact?: boolean }) {
  const acl = useAcl().data
  if (!allows(acl, routePermission('/wallet/credit'))) return null
  return <CreditChipBody compact={compact} canPay={allows(acl, 'wallet.pay')} />
}

function CreditChipBody({ compact, canPay }: { compact: boolean; canPay: boolean }) {
  const { data, isPending, isError, isFetching, refetch } = useCredit()
  return (
    <HStack
      gap="1"
      ps="3"
      pe="1"
      py="1"
      rounded="full"
      bg="brand.subtle"
      borderWidth="1px"
      borderColor="brand.muted"
      data-testid="credit"
    >
      <WalletIcon color="brand.fg" boxSize="4.5" />
      {!compact && (
        <Text fontSize="xs" color="app.muted" ms="1">
          اعتبار:
        </Text>
      )}
      {isPending ? (
        <Skeleton h="4" w="20" />
      ) : (
        <Text fontSize="sm" fontWeight="bold" color="brand.fg" data-testid="credit-value" whiteSpace="nowrap">
          {isError ? '—' : formatNumber(data ?? 0)}
          <Text as="span" fontWeight="normal" fontSize="xs" ms="1">
            ریال
          </Text>
        </Text>
      )}
      <IconButton
        aria-label="به‌روزرسانی اعتبار"
        title="به‌روزرسانی اعتبار"
        size="xs"
        variant="ghost"
        rounded="full"
        onClick={() => refetch()}
        loading={isFetching && !isPending}
      >
        <RefreshIcon />
      </IconButton>
      {canPay && (
        <IconButton asChild size="xs" rounded="full" colorPalette="brand" variant="solid">
          <RouterLink to="/wallet/credit" title="افزایش اعتبار" aria-label="افزایش اعتبار">
            <PlusIcon />
          </RouterLink>
        </IconButton>
      )}
    </HStack>
  )
}
