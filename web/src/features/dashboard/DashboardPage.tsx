import { Button, Grid, SimpleGrid, Stack } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { SectionCard } from '../../components/SectionCard'
import { MethodCard } from '../../components/MethodCard'
import { SEND_METHODS } from '../../components/sendMethods'
import { CreditHero } from './CreditHero'
import { RecentSends } from './RecentSends'

/** /dashboard: credit, recent sends and shortcuts to the send methods. */
export default function DashboardPage() {
  return (
    <Stack gap={{ base: '4', md: '6' }}>
      <Grid templateColumns={{ base: '1fr', lg: '5fr 7fr' }} gap={{ base: '4', md: '6' }} alignItems="start">
        <Stack gap={{ base: '4', md: '6' }}>
          <CreditHero />
          <SectionCard
            title="روش‌های ارسال"
            actions={
              <Button asChild size="xs" variant="ghost" colorPalette="brand">
                <RouterLink to="/send-sms">همه روش‌ها</RouterLink>
              </Button>
            }
          >
            <SimpleGrid columns={{ base: 2, sm: 3 }} gap="2.5">
              {SEND_METHODS.slice(0, 6).map((m) => (
                <MethodCard key={m.key} method={m} compact />
              ))}
            </SimpleGrid>
          </SectionCard>
        </Stack>
        <RecentSends />
      </Grid>
    </Stack>
  )
}
