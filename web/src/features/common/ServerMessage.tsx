import { Box, type BoxProps } from '@chakra-ui/react'
import { useMemo } from 'react'
import { errorDisplay } from '../../lib/apiError'
import { sanitizeServerHtml } from '../../lib/sanitize'

interface Props extends Omit<BoxProps, 'children'> {
  /** An error from the API client (or a plain string); shown by the spec §8 display rule. */
  error: unknown
}

/** Shows an error text; only messages that came from the server are rendered as HTML. */
export function ServerMessage({ error, ...rest }: Props) {
  const { text, html } = errorDisplay(error)
  const safe = useMemo(() => (html ? sanitizeServerHtml(text) : ''), [html, text])
  if (html) return <Box {...rest} dangerouslySetInnerHTML={{ __html: safe }} />
  return (
    <Box whiteSpace="pre-line" {...rest}>
      {text}
    </Box>
  )
}
