import { Button, Center, HStack, Heading, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { toPersianDigits } from '../../lib/digits'

/** The not-found page (/404 and every unmatched path). */
export default function NotFoundPage() {
  const navigate = useNavigate()
  return (
    <Center minH="60vh" px="4" data-testid="not-found">
      <Stack align="center" gap="4" textAlign="center" maxW="md">
        <Text fontSize={{ base: '6xl', md: '8xl' }} fontWeight="black" lineHeight="1" color="brand.fg" opacity="0.85">
          {toPersianDigits(404)}
        </Text>
        <Heading as="h2" size="lg">
          صفحه مورد نظر پیدا نشد
        </Heading>
        <Text color="app.muted">نشانی وارد شده وجود ندارد یا این صفحه در این دستگاه در دسترس نیست.</Text>
        <HStack gap="3">
          <Button asChild colorPalette="brand">
            <RouterLink to="/dashboard">رفتن به پیشخوان</RouterLink>
          </Button>
          <Button variant="outline" onClick={() => navigate(-1)}>
            بازگشت
          </Button>
        </HStack>
      </Stack>
    </Center>
  )
}
