import { Text } from '@chakra-ui/react'
import { ErrorState } from '../../components/States'
import { missingAccessText, type Permission } from '../../lib/acl'
import { ACCESS_LIMITED } from '../../lib/apiError'

/** «دسترسی محدود» (403-8) of a page the role cannot open, naming the permission it needs in Persian. */
export function AccessLimited({ needs }: { needs: Permission | 'owner' | undefined }) {
  const missing = missingAccessText(needs)
  return (
    <ErrorState
      title="دسترسی محدود"
      description={ACCESS_LIMITED}
      data-testid="access-limited"
      action={missing && <Text fontSize="sm" fontWeight="medium" color="fg" data-testid="missing-permission">{missing}</Text>}
    />
  )
}
