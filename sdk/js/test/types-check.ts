// Compiled with tsc --noEmit --strict by scripts/sdk-test.sh: the declarations describe the API.
import { ChaparError, Client, verifyWebhook, type InboxMessage } from '../src/index.js'

async function example(): Promise<void> {
  const client = new Client('http://127.0.0.1:8080', 'chp_live_x', { maxRetries: 2 })
  const sent = await client.send({ sender: '300012345', numbers: ['09121234567'], text: 'سلام', localId: 'a-1' })
  const st = await client.statusByLocalId('a-1', { mobile: '09121234567' })
  const n: number = sent.id + st.delivered + (st.recipient?.status ?? 0) + (await client.credit())
  const inbox: InboxMessage[] = await client.inboxSince(n, { limit: 10 })
  const otp = await client.sendPattern({ code: 'login-otp', recipient: '09121234567', values: { code: 1234 } })
  const ok: boolean = verifyWebhook('whsec_x', '1', 'v1=00', inbox[0]?.text ?? otp.type)
  try {
    await client.status(1)
  } catch (err) {
    if (err instanceof ChaparError && ok) console.log(err.status, err.code, err.errors.numbers?.[0])
  }
}
void example
