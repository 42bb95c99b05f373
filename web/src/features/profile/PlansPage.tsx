import { Badge, Box, Button, Flex, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink, useLocation } from 'react-router'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState } from '../../components/States'
import { errorText } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { usePlan, type PlanInfo } from './api'

const TICKET = '/support/create-ticket'

function Limit({ label, used, max }: { label: string; used: number; max: number }) {
  const pct = Math.min(100, Math.round((used / Math.max(1, max)) * 100))
  return (
    <Stack gap="1">
      <Flex justify="space-between" fontSize="sm">
        <Text>{label}</Text>
        <Text color="app.muted">{toPersianDigits(used)} از {toPersianDigits(max)}</Text>
      </Flex>
      <Box h="2" bg="app.border" rounded="full" overflow="hidden">
        <Box h="full" w={`${pct}%`} bg={pct >= 90 ? 'red.solid' : 'brand.solid'} />
      </Box>
    </Stack>
  )
}

function Facilities({ info }: { info: PlanInfo }) {
  const title = (code: string) => info.plans.find((p) => p.code === code)?.title ?? code
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="3" data-testid="facilities">
      {info.facilities.map((f) => (
        <Box key={f.code} borderWidth="1px" borderColor="app.border" rounded="card" p="4" data-testid={`facility-${f.code}`}>
          <Flex justify="space-between" gap="2" align="center">
            <Text fontWeight="medium">{f.title}</Text>
            <Badge colorPalette={f.available ? 'green' : 'orange'}>{f.available ? 'فعال' : `طرح ${title(f.min_plan)}`}</Badge>
          </Flex>
          <Text fontSize="sm" color="app.muted" mt="1">{f.detail}</Text>
          {!f.available && (
            <Button asChild size="xs" mt="3" variant="outline" colorPalette="brand">
              <RouterLink to={TICKET}>ثبت تیکت</RouterLink>
            </Button>
          )}
        </Box>
      ))}
    </SimpleGrid>
  )
}

/** /facilities and /plans: the account's plan, its limits and the services an upgrade opens. */
export default function PlansPage() {
  const plan = usePlan()
  const facilitiesFirst = useLocation().pathname.startsWith('/facilities')
  if (plan.isPending) return <Skeleton h="64" rounded="card" />
  if (!plan.data) return <ErrorState description={errorText(plan.error)} onRetry={() => plan.refetch()} />
  const { current, usage } = plan.data
  const limits = (
    <SectionCard title={`طرح فعلی: ${current.title}`} description="برای ارتقای طرح یا افزایش سقف‌ها تیکت ثبت کنید."
      actions={<Button asChild size="sm" colorPalette="brand"><RouterLink to={TICKET}>ثبت تیکت ارتقا</RouterLink></Button>}>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Limit label="خطوط ارسال" used={usage.lines} max={current.lines} />
        <Limit label="همکاران" used={usage.colleagues} max={current.colleagues} />
        <Limit label="کلیدهای API" used={usage.api_keys} max={current.api_keys} />
        <Limit label="فضای فایل (مگابایت)" used={Math.ceil(usage.files_bytes / 1048576)} max={current.files_mb} />
      </SimpleGrid>
    </SectionCard>
  )
  const services = (
    <SectionCard title="امکانات" description="امکاناتی که طرح شما ندارد با ارتقای طرح فعال می‌شوند.">
      <Facilities info={plan.data} />
    </SectionCard>
  )
  return <Stack gap="4">{facilitiesFirst ? <>{services}{limits}</> : <>{limits}{services}</>}</Stack>
}
