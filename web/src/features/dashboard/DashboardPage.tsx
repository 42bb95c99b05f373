import { Button, Grid, SimpleGrid, Skeleton, Stack } from '@chakra-ui/react'
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import { Link as RouterLink } from 'react-router'
import { SectionCard } from '../../components/SectionCard'
import { MethodCard } from '../../components/MethodCard'
import { SEND_METHODS } from '../../components/sendMethods'
import { useCredit } from '../../lib/credit'
import { CreditHero } from './CreditHero'
import { RecentSends } from './RecentSends'

// The staff-edited blocks live in their own chunk, fetched with their data only once
// the credit is on screen, so they never delay it.
const blocks = () => import('./ContentBlocks')
const BannerStrip = lazy(() => blocks().then((m) => ({ default: m.BannerStrip })))
const BannerCarousel = lazy(() => blocks().then((m) => ({ default: m.BannerCarousel })))
const QuickAccess = lazy(() => blocks().then((m) => ({ default: m.QuickAccess })))
const FirstSteps = lazy(() => import('./FirstSteps').then((m) => ({ default: m.FirstSteps })))
const News = lazy(() => import('./News').then((m) => ({ default: m.News })))
// The charts (recharts) are their own chunk too.
const DashboardCharts = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.DashboardCharts })))

/** Renders its children only after the commit that put the credit on screen (the first commit stays light). */
function AfterCredit({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const { isPending } = useCredit()
  const [ready, setReady] = useState(false)
  useEffect(() => {
    if (isPending || ready) return
    const t = window.setTimeout(() => setReady(true), 0)
    return () => window.clearTimeout(t)
  }, [isPending, ready])
  return <Suspense fallback={fallback}>{ready ? children : fallback}</Suspense>
}

const cardSkeleton = <Skeleton h="40" rounded="card" />

/** /dashboard: credit, banners, the first steps (until all are taken), quick access, recent sends, news, shortcuts to the send methods and the 30-day charts. */
export default function DashboardPage() {
  return (
    <Stack gap={{ base: '4', md: '6' }}>
      <AfterCredit>
        <BannerStrip />
      </AfterCredit>
      <AfterCredit>
        <FirstSteps />
      </AfterCredit>
      <Grid templateColumns={{ base: '1fr', lg: '5fr 7fr' }} gap={{ base: '4', md: '6' }} alignItems="start">
        <Stack gap={{ base: '4', md: '6' }}>
          <CreditHero />
          <AfterCredit>
            <BannerCarousel />
          </AfterCredit>
          <AfterCredit fallback={cardSkeleton}>
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
          </AfterCredit>
        </Stack>
        <Stack gap={{ base: '4', md: '6' }}>
          <AfterCredit fallback={cardSkeleton}>
            <QuickAccess />
          </AfterCredit>
          <AfterCredit fallback={cardSkeleton}>
            <RecentSends />
          </AfterCredit>
          <AfterCredit fallback={cardSkeleton}>
            <News />
          </AfterCredit>
        </Stack>
      </Grid>
      <AfterCredit fallback={cardSkeleton}>
        <DashboardCharts />
      </AfterCredit>
    </Stack>
  )
}
