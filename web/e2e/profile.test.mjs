// The profile against the real stack: the demo owner edits the personal section at
// mobile width (390 px), gets the server's Persian error under the national code, fixes
// it and saves; the tariffs page prices a text per operator on desktop. Screenshots of
// the profile pages go to /tmp/profile-*.png (light and dark, desktop and mobile).
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, DESKTOP, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, signInWithToken } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const snap = async (page, name) => {
  await page.waitForTimeout(400)
  await page.screenshot({ path: `/tmp/profile-${name}.png`, fullPage: true })
}

test('edit the profile at 390 px: a national-code error, then success', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser, MOBILE)
  page.setDefaultNavigationTimeout(45_000) // a shared, loaded machine
  await signInWithToken(page, token, '/profile/personal-info')
  const form = page.getByTestId('profile-form-personal')
  await form.waitFor()
  await page.getByTestId('profile-person-type').getByText('حقیقی').click()
  await page.getByTestId('profile-first_name').fill('سارا')
  await page.getByTestId('profile-last_name').fill('احمدی')
  await page.getByTestId('profile-first_name_en').fill('Sara')
  await page.getByTestId('profile-national_code').fill('0499370898') // wrong check digit
  await page.getByTestId('profile-save').click()
  await form.getByText('کد ملی معتبر نیست').waitFor()
  await snap(page, 'personal-error-mobile')
  const before = await apiCall('GET', '/user/show_profile', undefined, token)
  assert.equal(before.details.national_code, '', 'a refused form saves nothing')

  await page.getByTestId('profile-national_code').fill('۰۴۹۹۳۷۰۸۹۹') // Persian digits are fine
  await page.getByTestId('profile-save').click()
  await page.getByText('اطلاعات شخصی ذخیره شد').waitFor()
  await assert.rejects(form.getByText('کد ملی معتبر نیست').waitFor({ timeout: 1000 }))
  const saved = await apiCall('GET', '/user/show_profile', undefined, token)
  assert.equal(saved.details.national_code, '0499370899')
  assert.equal(saved.details.first_name_en, 'Sara')
  await snap(page, 'personal-saved-mobile')

  await page.goto(`${PANEL_URL}/profile`)
  await page.getByTestId('profile-nav').waitFor({ timeout: 30_000 })
  await snap(page, 'hub-mobile')
  await page.goto(`${PANEL_URL}/profile/security-setting`)
  await page.getByTestId('sessions-card').getByTestId('session-row').first().waitFor({ timeout: 30_000 })
  await snap(page, 'security-mobile')
  await context.close()
})

test('tariffs on desktop: the table and a priced text', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  for (const dark of [false, true]) {
    const { context, page } = await openPage(browser, DESKTOP)
    if (dark) await context.addInitScript(() => localStorage.setItem('dark', 'true'))
    page.setDefaultNavigationTimeout(45_000)
    await signInWithToken(page, token, '/profile/tariffs')
    await page.getByTestId('tariff-irancell').waitFor()
    await page.getByTestId('calc-text').fill('س'.repeat(71))
    await page.getByTestId('calc-count').fill('1000')
    await page.getByTestId('calc-submit').click()
    const result = page.getByTestId('calc-result')
    await result.getByText('۲ بخش', { exact: false }).waitFor()
    const calc = await apiCall('POST', '/user/get_tariff/calculate', { text: 'س'.repeat(71), cancel11: true, count: 1000 }, token)
    const irancell = calc.prices.find((p) => p.operator === 'irancell')
    assert.ok(irancell.each > calc.prices.find((p) => p.operator === 'mci').each, 'Irancell carries its surcharge')
    await page.getByTestId('calc-irancell').waitFor()
    await snap(page, `tariffs-desktop-${dark ? 'dark' : 'light'}`)
    const ready = { facilities: 'facilities', 'profile/settings': 'settings-save', 'profile/documents': 'document-kind',
      'profile/change-phone-number': 'mobile-start', plans: 'facilities' }
    for (const [path, testid] of Object.entries(ready)) {
      await page.goto(`${PANEL_URL}/${path}`)
      await page.getByTestId(testid).waitFor({ timeout: 30_000 })
      if (path === 'facilities') {
        // The demo account is on the enterprise plan: every service is on, and the
        // upgrade ticket is one click away.
        await page.getByTestId('facility-utm_tracking').getByText('فعال', { exact: true }).waitFor()
        assert.equal(await page.getByRole('link', { name: 'ثبت تیکت ارتقا' }).getAttribute('href'), '/support/create-ticket')
      }
      await snap(page, `${path.replace('/', '-')}-desktop-${dark ? 'dark' : 'light'}`)
    }
    await context.close()
  }
})
