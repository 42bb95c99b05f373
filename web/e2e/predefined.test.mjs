// Predefined messages and drafts against the real stack: the demo owner creates a group
// and a message, inserts it into the quick-send editor with «درج متن آماده», saves the
// wizard as a draft, and resumes it from /send-sms/drafts with the text and numbers.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomDigits, randomMobile, signInWithToken, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const fa = (s) => s.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])
const snap = async (page, name) => {
  await page.waitForTimeout(300)
  await page.screenshot({ path: `/tmp/predef-${name}.png` })
}

test('group → message → insert in quick send → draft → resume', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/predefined-messages')

  const group = `تبریک ${randomDigits(4)}`
  await page.getByTestId('predefined-new-group').click()
  await page.getByTestId('predefined-group-title').fill(group)
  await page.getByTestId('predefined-group-save').click()
  await page.getByRole('cell', { name: fa(group) }).click()
  await waitForPath(page, /\/predefined-messages\/\d+$/)

  const title = `نوروز ${randomDigits(3)}`
  const text = 'نوروزتان پیروز و سال نو مبارک'
  await page.getByTestId('predefined-new-message').click()
  await page.getByTestId('predefined-message-title').fill(title)
  await page.getByTestId('predefined-message-text').locator('textarea').fill(text)
  await page.getByTestId('predefined-message-save').click()
  await page.getByText(text).waitFor()
  await snap(page, 'group')

  // Quick send: one number, then the text with the predefined message inserted after «سلام».
  await page.goto(`${PANEL_URL}/send-sms/quick/steps`)
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  const entry = page.getByTestId('recipients').locator('input[type="tel"]')
  await entry.fill(randomMobile())
  await entry.press('Enter')
  await page.getByTestId('wizard-next').click()
  const area = page.getByTestId('message').locator('textarea')
  await area.fill('سلام ')
  await page.getByTestId('predefined-open').click()
  // The whole list loads first; then the group's chip is pressed and shows it is.
  const picker = page.getByTestId('predefined-picker')
  await picker.getByRole('listbox').waitFor()
  const chip = picker.getByRole('button', { name: new RegExp(fa(group)) })
  await chip.click()
  await picker.locator(`button[aria-pressed="true"]`, { hasText: fa(group) }).waitFor()
  await page.getByRole('option', { name: new RegExp(fa(title)) }).click()
  await page.getByTestId('predefined-preview').waitFor()
  await snap(page, 'picker')
  await page.getByTestId('predefined-insert').click()
  await page.getByTestId('predefined-picker').waitFor({ state: 'detached' })
  assert.equal(await area.inputValue(), `سلام ${text}`)

  await page.getByTestId('wizard-save-draft').click()
  await page.getByText('پیش‌نویس ذخیره شد').waitFor()
  const drafts = await apiCall('GET', '/user/draft/list?type=quick', undefined, token)
  const saved = drafts.find((d) => d.text === `سلام ${text}`)
  assert.ok(saved, 'the draft is listed by the API')
  assert.equal(saved.recipients, 1)

  // Resume from the drafts list: the wizard opens filled in.
  await page.goto(`${PANEL_URL}/send-sms/drafts`)
  await page.getByTestId(`draft-resume-${saved.id}`).waitFor()
  await snap(page, 'drafts')
  await page.getByTestId(`draft-resume-${saved.id}`).click()
  await waitForPath(page, /\/send-sms\/quick\/steps$/)
  assert.match(page.url(), new RegExp(`draft=${saved.id}$`))
  // The step shows the draft's recipients only once the draft has loaded (until then
  // «مرحله بعد» is disabled, and a click would wait for it).
  await page.getByTestId('quick-step-0').getByTestId('recipients').waitFor()
  await page.getByTestId('wizard-next').click()
  const resumed = page.getByTestId('quick-step-1').getByTestId('message').locator('textarea')
  assert.equal(await resumed.inputValue(), `سلام ${text}`)
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('price-quote').waitFor()
  assert.equal(await page.getByTestId('quote-recipients').textContent(), '۱')
  await snap(page, 'resumed-review')

  // Deleting the draft from the list.
  await page.goto(`${PANEL_URL}/send-sms/drafts`)
  await page.getByTestId(`draft-delete-${saved.id}`).click()
  await page.getByTestId('draft-delete-confirm').click()
  await page.getByTestId(`draft-resume-${saved.id}`).waitFor({ state: 'detached' })
  await context.close()
})

test('predefined pages on mobile and in the dark theme', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser, MOBILE)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(page, token, '/predefined-messages')
  await page.getByTestId('predefined-count-groups').waitFor()
  await page.getByRole('heading', { name: 'پیام‌های از پیش تعریف‌شده' }).first().waitFor()
  await snap(page, 'mobile-dark')
  await page.getByRole('link', { name: 'پیام‌ها' }).first().click()
  await waitForPath(page, /\/predefined-messages\/\d+$/)
  await page.getByTestId('predefined-new-message').waitFor()
  await snap(page, 'group-mobile')
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  assert.ok(overflow <= 1, `no sideways scroll on mobile (overflow ${overflow}px)`)
  await page.goto(`${PANEL_URL}/send-sms/drafts`)
  // At 390 px the drafts are a list of cards (the wizards' own drafts may be there), else the empty state.
  await page.getByRole('list', { name: 'پیش‌نویس‌ها' }).or(page.getByText('پیش‌نویسی ندارید', { exact: false })).first().waitFor()
  await snap(page, 'drafts-mobile')
  // The wizard's bar holds back, «ذخیره پیش‌نویس» and next without sideways scroll.
  await page.goto(`${PANEL_URL}/send-sms/quick/steps`)
  await page.getByTestId('wizard-save-draft').waitFor()
  await snap(page, 'quick-mobile')
  for (const id of ['wizard-back', 'wizard-save-draft', 'wizard-next']) {
    const box = await page.getByTestId(id).boundingBox()
    assert.ok(box && box.x >= 0 && box.x + box.width <= MOBILE.width, `${id} inside the screen: ${JSON.stringify(box)}`)
  }
  await context.close()
})
