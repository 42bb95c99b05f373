import { Button, Card, Heading, Stack, Text, Wrap } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { ErrorState, LoadingState } from '../../components/States'
import { useLibraries, type Library } from './api'
import { CodeBlock } from './CodeBlock'
import { ownSample, type DocsAccount, type Lang } from './docsModel'

/**
 * The ready client libraries and the WordPress plugin (docs/sdk.md): the chosen language's
 * library with its install line and a send filled with the reader's own address, key prefix
 * and line, and a download of each.
 */
export function LibrariesCard({ lang, base, acct }: { lang: Lang; base: string; acct: DocsAccount }) {
  const q = useLibraries()
  const chosen = q.data?.find((l) => l.id === lang)
  return (
    <Card.Root variant="outline" rounded="xl" data-testid="docs-libraries">
      <Card.Body gap="3">
        <Heading size="sm">کتابخانه‌های آماده و افزونه وردپرس</Heading>
        <Text fontSize="sm" color="fg.muted">
          برای PHP، Python، JavaScript و Go کتابخانه آماده داریم: ارسال، وضعیت با شناسه یا local_id، ارسال الگو و کد
          یکبارمصرف، اعتبار، پیامک‌های دریافتی و بررسی امضای وب‌هوک، با تلاش دوباره امن (Idempotency-Key) و پیام فارسی خطاها.
        </Text>
        {q.isPending && <LoadingState py="4" />}
        {q.isError && <ErrorState py="4" onRetry={() => void q.refetch()} />}
        {chosen && <LibrarySample l={chosen} base={base} acct={acct} />}
        {q.data && !chosen && (
          <Text fontSize="sm" color="fg.muted">زبان PHP، Python، JavaScript یا Go را بالا انتخاب کنید تا نمونه کتابخانه‌اش را ببینید.</Text>
        )}
        <Wrap gap="2">
          {q.data?.map((l) => (
            <Button key={l.id} asChild size="xs" variant="outline" colorPalette="brand">
              <a href={l.download} download data-testid={`library-download-${l.id}`}>بارگیری {l.title}</a>
            </Button>
          ))}
          <Button asChild size="xs" variant="outline">
            <a href="/v1/api/plugins/wordpress/download" download data-testid="library-download-wordpress">بارگیری افزونه وردپرس</a>
          </Button>
          <Button asChild size="xs" variant="ghost">
            <RouterLink to="/developers/plugins">راهنمای افزونه‌ها</RouterLink>
          </Button>
        </Wrap>
      </Card.Body>
    </Card.Root>
  )
}

function LibrarySample({ l, base, acct }: { l: Library; base: string; acct: DocsAccount }) {
  return (
    <Stack gap="2" data-testid={`library-${l.id}`}>
      <Text fontSize="sm" fontWeight="medium">{l.title}</Text>
      <CodeBlock code={l.install} testId={`library-${l.id}-install`} />
      <CodeBlock code={ownSample(l.sample, base, acct)} testId={`library-${l.id}-sample`} />
    </Stack>
  )
}
