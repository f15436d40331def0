import { describe, expect, it } from 'vitest'
import type { Platform } from '../../src/links/targeting-keys.js'
import { browserOf, deviceOf, platformOf, type DeviceType } from '../../src/visitors/user-agent.js'
import { BROWSERS as B } from './user-agent-samples.js'

const rows: [string, string, Platform | null, string | null, DeviceType][] = [
  ['Chrome on Windows 10/11 (both say NT 10.0)', B.chromeWindows, 'Windows', 'Chrome', 'desktop'],
  ['Edge on Windows', B.edgeWindows, 'Windows', 'Edge', 'desktop'],
  ['Firefox on Windows', B.firefoxWindows, 'Windows', 'Firefox', 'desktop'],
  ['Opera on Windows', B.operaWindows, 'Windows', 'Opera', 'desktop'],
  ["Ubuntu's Firefox", B.firefoxUbuntu, 'Ubuntu', 'Firefox', 'desktop'],
  [
    'Konqueror on Kubuntu (an Ubuntu flavour)',
    B.konquerorKubuntu,
    'Ubuntu',
    'Konqueror',
    'desktop',
  ],
  ['Firefox on Linux', B.firefoxLinux, 'Linux', 'Firefox', 'desktop'],
  ['Firefox on Fedora', B.firefoxFedora, 'Linux', 'Firefox', 'desktop'],
  ['Chrome on Linux (Fedora, Ubuntu … all say Linux)', B.chromeLinux, 'Linux', 'Chrome', 'desktop'],
  ['Safari on macOS', B.safariMac, 'OS X', 'Safari', 'desktop'],
  ['Chrome on macOS', B.chromeMac, 'OS X', 'Chrome', 'desktop'],
  ['Firefox on macOS', B.firefoxMac, 'OS X', 'Firefox', 'desktop'],
  ['iPadOS Safari (sends a Mac User-Agent)', B.safariIpadOS, 'OS X', 'Safari', 'desktop'],
  ['iPad Safari asking for the mobile site', B.safariIpadMobileSite, 'iOS', 'Safari', 'tablet'],
  ['Safari on iPhone', B.safariIphone, 'iOS', 'Safari', 'mobile'],
  ['Chrome on iPhone (CriOS)', B.chromeIphone, 'iOS', 'Chrome', 'mobile'],
  ['Safari on iPod touch', B.safariIpod, 'iOS', 'Safari', 'mobile'],
  ['Instagram in-app browser on iPhone', B.instagramIphone, 'iOS', 'Instagram', 'mobile'],
  ['Chrome on an Android phone', B.chromeAndroidPhone, 'Android', 'Chrome', 'mobile'],
  [
    'Chrome on an Android tablet (no "Mobile")',
    B.chromeAndroidTablet,
    'Android',
    'Chrome',
    'tablet',
  ],
  ['Chrome on a Galaxy Tab', B.chromeGalaxyTab, 'Android', 'Chrome', 'tablet'],
  ['Samsung Internet', B.samsungInternet, 'Android', 'Samsung Internet', 'mobile'],
  ['Firefox on an Android phone', B.firefoxAndroid, 'Android', 'Firefox', 'mobile'],
  ['Firefox on an Android tablet', B.firefoxAndroidTablet, 'Android', 'Firefox', 'tablet'],
  ['Facebook in-app browser on Android', B.facebookAndroid, 'Android', 'Facebook', 'mobile'],
  ['Chrome on Chrome OS', B.chromeOS, 'Chrome OS', 'Chrome', 'desktop'],
  ['Edge on Windows Phone (none of the seven)', B.edgeWindowsPhone, null, 'Edge', 'mobile'],
  ['Edge on an Xbox', B.xboxEdge, 'Windows', 'Edge', 'desktop'],
  ['Firefox on FreeBSD (none of the seven)', B.firefoxFreeBSD, null, 'Firefox', 'desktop'],
]

const table = rows.map(([name, ua, platform, browser, device]) => ({
  name,
  ua,
  platform,
  browser,
  device,
}))

describe('User-Agent', () => {
  it.each(table)('$name: platform $platform', ({ ua, platform }) => {
    expect(platformOf(ua)).toBe(platform)
  })

  it.each(table)('$name: browser $browser', ({ ua, browser }) => {
    expect(browserOf(ua)).toBe(browser)
  })

  it.each(table)('$name: device $device', ({ ua, device }) => {
    expect(deviceOf(ua)).toBe(device)
  })

  it.each([undefined, null, '', 'Mozilla/5.0', 'curl/8.5.0'])(
    'knows no platform or browser from %j, and calls the device desktop',
    (ua) => {
      expect(platformOf(ua)).toBeNull()
      expect(browserOf(ua)).toBeNull()
      expect(deviceOf(ua)).toBe('desktop')
    },
  )

  it('reads only the first 512 characters of a huge header', () => {
    expect(platformOf('x'.repeat(512) + ' Windows NT 10.0')).toBeNull()
    expect(platformOf(B.chromeWindows + ' '.repeat(1_000_000) + 'iPhone')).toBe('Windows')
    expect(deviceOf(B.chromeWindows + ' '.repeat(1_000_000) + 'Mobile')).toBe('desktop')
    expect(browserOf(B.firefoxLinux + 'x'.repeat(1_000_000))).toBe('Firefox')
  })
})
