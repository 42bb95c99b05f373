// The writing assistant (issue #22): in the quick-send editor the demo account opens the
// assistant, asks for an ad, uses the answer and sees the editor's counter update; a quick
// action continues the same conversation; on mobile the assistant is a bottom sheet; the
// new-ticket form takes a draft from a free-text problem (/ticket/ai). The stack runs the
// offline model (no ASSISTANT_URL), so this needs no network.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiToken, launch, openPage, randomMobile, shot, signInWithToken, waitForPath } from './helpers.mjs'

let browser
let token
before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
})
after(async () => { await browser?.close() })

/** Opens quick send's text step with one recipient. */
async function textStep(page) {
  await signInWithToken(page, token, '/send-sms/quick/steps')
  await page.getByTestId('quick-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  const entry = page.getByTestId('recipients').locator('input[type="tel"]')
  await entry.fill(randomMobile())
  await entry.press('Enter')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('quick-step-1').waitFor()
}

const counter = (page) => page.getByTestId('message').locator('[aria-live="polite"]').first().textContent()

test('assistant: ask, use the answer, the counter updates; a quick action continues the chat', { timeout: 120_000 }, async () => {
  const { context, page } = await openPage(browser)
  await textStep(page)
  const before = await counter(page)
  await page.getByTestId('assistant-open').click()
  const panel = page.getByRole('dialog', { name: 'دستیار هوشمند نگارش' })
  await panel.waitFor()
  const send = panel.getByTestId('assistant-send')
  assert.equal(await send.isDisabled(), true, 'send is disabled while the request is empty')
  await panel.getByRole('button', { name: '۲' }).click()
  await panel.getByRole('textbox', { name: 'درخواست از دستیار' }).fill('یک تبلیغ برای تخفیف ۲۰ درصدی کفش زمستانی تا ۱۵ آذر بنویس')
  const asked = page.waitForResponse((r) => r.url().endsWith('/panel/agent'))
  await send.click()
  const first = await (await asked).json()
  assert.ok(first.data.conversation_id > 0, 'the first reply names the conversation')
  const reply = panel.getByTestId('assistant-reply').first()
  await reply.waitFor()
  const thought = first.data.thought
  assert.match(thought, /۲۰/)
  assert.match(thought, /۱۵ آذر/)
  assert.ok(first.data.parts <= 2, `reply within the 2-part budget: ${first.data.parts}`)
  await shot(page, 'assistant-desktop-reply')

  // A quick action rewrites the reply in the same conversation.
  const again = page.waitForRequest((r) => r.url().endsWith('/panel/agent'))
  await panel.getByRole('button', { name: 'لحن رسمی' }).click()
  const body = (await again).postDataJSON()
  assert.equal(body.conversation_id, first.data.conversation_id)
  assert.equal(body.action, 'formal')
  await panel.getByTestId('assistant-reply').nth(1).waitFor()

  // Use the first answer: the editor holds it and its counter changed.
  await panel.getByTestId('assistant-use').first().click()
  await panel.waitFor({ state: 'hidden' })
  const area = page.getByTestId('message').locator('textarea')
  assert.equal(await area.inputValue(), thought)
  const after = await counter(page)
  assert.notEqual(after, before)
  assert.match(after, /بخش‌ها: [۱۲]/)
  await shot(page, 'assistant-desktop-used')
  await context.close()
})

test('assistant: a bottom sheet on mobile, in dark mode', { timeout: 120_000 }, async () => {
  const { context, page } = await openPage(browser, MOBILE)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate(() => localStorage.setItem('dark', 'true'))
  await textStep(page)
  await page.getByTestId('message').locator('textarea').fill('مشتری گرامی، بدین وسیله به اطلاع می‌رساند که فروش ویژه پاییزه با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود. فرصت را از دست ندهید!')
  await page.getByTestId('assistant-open').click()
  const sheet = page.getByRole('dialog', { name: 'دستیار هوشمند نگارش' })
  await sheet.waitFor()
  await sheet.getByRole('button', { name: 'کوتاه‌تر' }).click()
  const reply = sheet.getByTestId('assistant-reply')
  await reply.waitFor()
  const text = await reply.locator('p').first().textContent()
  assert.match(text, /۳۰ درصد/)
  assert.ok(!text.includes('بدین وسیله'), text)
  const box = await sheet.boundingBox()
  assert.ok(box && box.width >= MOBILE.width - 2, 'the sheet spans the screen')
  await shot(page, 'assistant-mobile-dark')
  await context.close()
})

test('ticket draft: a free-text problem fills category, sub-category and title', { timeout: 240_000 }, async () => {
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/support/create-ticket')
  await page.getByTestId('ticket-ai').waitFor()
  await page.getByRole('textbox', { name: 'شرح مشکل برای دستیار' }).fill('از دیروز پیامک‌های من به مشترکین ایرانسل نمی‌رسد. گزارش تحویل هم خالی است.')
  await page.getByTestId('ticket-ai-suggest').click()
  await page.getByTestId('ticket-ai-result').waitFor()
  assert.equal(await page.getByTestId('ticket-title').inputValue(), 'از دیروز پیامک‌های من به مشترکین ایرانسل نمی‌رسد')
  assert.match(await page.getByTestId('ticket-text').inputValue(), /گزارش تحویل/)
  await page.getByText('ارسال نشدن پیامک').first().waitFor()
  await shot(page, 'assistant-ticket-draft')
  await page.getByTestId('ticket-submit').click()
  await waitForPath(page, /\/support\/tickets\/\d+$/)
  await context.close()
})
