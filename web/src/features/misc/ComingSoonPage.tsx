import { Button, Center, Heading, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { usePageMeta } from '../../lib/pageMeta'
import { SectionCard } from '../../components/SectionCard'

/** Routes of the spec that are not built yet render this inside the layout. */
export default function ComingSoonPage() {
  const { title } = usePageMeta()
  return (
    <SectionCard py={{ base: '12', md: '20' }} data-testid="coming-soon">
      <Center>
        <Stack align="center" gap="4" textAlign="center" maxW="md">
          <Center boxSize="20" rounded="full" bg="brand.subtle" color="brand.fg" fontSize="3xl" aria-hidden>
            ⏳
          </Center>
          {title && (
            <Heading as="h2" size="lg">
              {title}
            </Heading>
          )}
          <Text fontSize="md" color="app.muted">
            این بخش به‌زودی فعال می‌شود
          </Text>
          <Button asChild colorPalette="brand" variant="subtle">
            <RouterLink to="/dashboard">بازگشت به پیشخوان</RouterLink>
          </Button>
        </Stack>
      </Center>
    </SectionCard>
  )
}
