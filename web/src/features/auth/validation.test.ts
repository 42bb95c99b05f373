import { describe, expect, it } from 'vitest'
import { confirmationError, isIranMobile, passwordError, toLocalMobile, usernameError } from './validation'

describe('mobile (spec §5)', () => {
  it.each(['09121234567', '9121234567', '989121234567', '+989121234567', '00989121234567', '۰۹۱۲۱۲۳۴۵۶۷', '٠٩١٢١٢٣٤٥٦٧', '0912 123 4567'])(
    'accepts %s',
    (m) => {
      expect(isIranMobile(m)).toBe(true)
      expect(toLocalMobile(m)).toBe('09121234567')
    },
  )
  it.each(['0812123456', '091212345', '+1 9121234567', '0912123456a', ''])('rejects %s', (m) => {
    expect(isIranMobile(m)).toBe(false)
    expect(toLocalMobile(m)).toBe('')
  })
})

describe('password (spec §5)', () => {
  it('needs 8 characters with a digit, a lowercase and an uppercase letter', () => {
    expect(passwordError('Ab1')).toMatch('۸')
    expect(passwordError('abcdefg1')).toMatch('حرف بزرگ')
    expect(passwordError('ABCDEFG1')).toMatch('حرف کوچک')
    expect(passwordError('Abcdefgh')).toMatch('عدد')
    expect(passwordError('Abcdefg1')).toBeNull()
  })
  it('must not include the username', () => {
    expect(passwordError('Xali2024Z', 'ali2024')).toMatch('نام کاربری')
    expect(passwordError('Strong@123', 'ali')).toBeNull()
  })
  it('confirmation must match', () => {
    expect(confirmationError('Abcdefg1', 'Abcdefg2')).toBe('رمز عبور و تکرار آن یکسان نیستند')
    expect(confirmationError('Abcdefg1', 'Abcdefg1')).toBeNull()
  })
})

describe('username', () => {
  it('takes Latin letters and digits only', () => {
    expect(usernameError('demo_user')).toBeNull()
    expect(usernameError('کاربر')).not.toBeNull()
    expect(usernameError('ab')).not.toBeNull()
  })
})
