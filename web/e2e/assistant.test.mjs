// The writing assistant (issue #22): the e2e stack has no remote model (no ASSISTANT_URL), so
// the assistant is the offline one: it says so, its request box for free writing is disabled,
// and its quick actions rewrite the editor's text. In quick send the demo account shortens a
// text, makes the reply formal in the same conversation, uses the first answer and sees the
// editor's counter update; a rewrite the offline model cannot do well (a colloquial text made
// formal) is refused with the reason in Persian and nothing to use; on mobile the assistant is
// a bottom sheet (dark and light); the new-ticket form takes a draft from a free-text problem
// (/ticket/ai).
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

/** Opens quick send with the text in the editor (dark mode when asked) and the assistant on it. */
async function assistantOn(text, { mobile = false, dark = false } = {}) {
  const { context, page } = await openPage(browser, mobile ? MOBILE : undefined)
  if (dark) {
    await page.goto(`${PANEL_URL}/login`)
    await page.evaluate(() => localStorage.setItem('dark', 'true'))
  }
  await textStep(page)
  await page.getByTestId('message').locator('textarea').fill(text)
  await page.getByTestId('assistant-open').click()
  const panel = page.getByRole('dialog', { name: 'دستیار هوشمند نگارش' })
  await panel.waitFor()
  await panel.getByTestId('assistant-offline').waitFor()
  return { context, page, panel }
}

/** Clicks a quick action and returns the request body and the reply of /panel/agent. */
async function quickAction(page, panel, label) {
  const answered = page.waitForResponse((r) => r.url().endsWith('/panel/agent') && r.request().method() === 'POST')
  await panel.getByRole('button', { name: label }).click()
  const response = await answered
  return { body: response.request().postDataJSON(), reply: (await response.json()).data }
}

const SALE = 'مشتری گرامی، بدین وسیله به اطلاع می‌رساند که فروش ویژه پاییزه با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود. فرصت را از دست ندهید!'
const CAFE = 'سلام! امروز قهوه دوم رو در کافه لاته مهمون ما باش. فقط تا ساعت ۱۸.'

const counter = (page) => page.getByTestId('message').locator('[aria-live="polite"]').first().textContent()

test('assistant offline: free writing is off and says why; shorter, then formal in the same conversation; use the answer', { timeout: 120_000 }, async () => {
  const { context, page, panel } = await assistantOn(SALE)
  const before = await counter(page)
  assert.match(await panel.getByTestId('assistant-offline').textContent(), /نوشتن آزاد، مثل نوشتن تبلیغ تازه، به مدل زبانی نیاز دارد/)
  assert.equal(await panel.getByRole('textbox', { name: 'درخواست از دستیار' }).isDisabled(), true, 'no free writing offline')
  assert.equal(await panel.getByTestId('assistant-send').isDisabled(), true)
  for (const label of ['کوتاه‌تر', 'بلندتر', 'لحن صمیمی', 'لحن رسمی']) {
    assert.equal(await panel.getByRole('button', { name: label }).isEnabled(), true, `${label} is offered offline`)
  }
  assert.equal(await panel.getByRole('button', { name: '۲' }).getAttribute('aria-pressed'), 'true', 'the budget starts at the text\'s two parts')

  const first = await quickAction(page, panel, 'کوتاه‌تر')
  assert.equal(first.body.action, 'shorter')
  assert.equal(first.reply.refused, false)
  assert.equal(first.reply.thought, 'فروش ویژه پاییزه با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود.')
  assert.ok(first.reply.conversation_id > 0, 'the first reply names the conversation')
  await panel.getByTestId('assistant-reply').first().waitFor()
  await panel.getByTestId('assistant-notes').locator('summary').click()
  await shot(page, 'assistant-desktop-reply')

  const second = await quickAction(page, panel, 'لحن رسمی')
  assert.equal(second.body.conversation_id, first.reply.conversation_id)
  assert.equal(second.body.text, first.reply.thought, 'a quick action rewrites the last reply')
  assert.equal(second.reply.thought, 'با سلام و احترام، فروش ویژه پاییزه با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌گردد.')
  await panel.getByTestId('assistant-reply').nth(1).waitFor()

  // Use the first answer: the editor holds it and its counter changed.
  await panel.getByTestId('assistant-use').first().click()
  await panel.waitFor({ state: 'hidden' })
  const area = page.getByTestId('message').locator('textarea')
  assert.equal(await area.inputValue(), first.reply.thought)
  const after = await counter(page)
  assert.notEqual(after, before)
  assert.match(after, /بخش‌ها: ۱/)
  await shot(page, 'assistant-desktop-used')
  await context.close()
})

test('assistant offline: a rewrite it cannot do well is refused with the reason, dark desktop', { timeout: 120_000 }, async () => {
  const { context, page, panel } = await assistantOn(CAFE, { dark: true })
  const { reply } = await quickAction(page, panel, 'لحن رسمی')
  assert.equal(reply.refused, true)
  assert.equal(reply.thought, CAFE, 'the text stays as it was')
  const refused = panel.getByTestId('assistant-reply')
  await refused.waitFor()
  assert.equal(await refused.getAttribute('data-refused'), 'true')
  assert.match(await refused.textContent(), /این متن محاوره‌ای است \(واژه «رو»\)؛ رسمی کردن درست آن با قواعد آفلاین ممکن نیست/)
  assert.equal(await refused.getByTestId('assistant-use').count(), 0, 'nothing to use')
  // The friendly tone is already there: said so, not the same text given back.
  const friendly = await quickAction(page, panel, 'لحن صمیمی')
  assert.equal(friendly.reply.refused, true)
  assert.match(friendly.reply.notice, /همین حالا لحن صمیمی دارد/)
  await panel.getByTestId('assistant-reply').nth(1).waitFor()
  await shot(page, 'assistant-desktop-dark-refused')
  await context.close()
})

for (const dark of [true, false]) {
  test(`assistant: a bottom sheet on mobile, ${dark ? 'dark' : 'light'}`, { timeout: 120_000 }, async () => {
    const { context, page, panel: sheet } = await assistantOn(dark ? SALE : CAFE, { mobile: true, dark })
    const box = await sheet.boundingBox()
    assert.ok(box && box.width >= MOBILE.width - 2, 'the sheet spans the screen')
    const { reply } = await quickAction(page, sheet, dark ? 'کوتاه‌تر' : 'لحن رسمی')
    await sheet.getByTestId('assistant-reply').waitFor()
    if (dark) {
      const text = await sheet.getByTestId('assistant-reply').locator('p').first().textContent()
      assert.match(text, /۳۰ درصد/)
      assert.ok(!text.includes('بدین وسیله'), text)
    } else {
      assert.equal(reply.refused, true)
      await sheet.getByTestId('assistant-notice').waitFor()
    }
    await shot(page, dark ? 'assistant-mobile-dark' : 'assistant-mobile-light-refused')
    await context.close()
  })
}

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
