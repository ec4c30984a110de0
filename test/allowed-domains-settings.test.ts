import { checkMerchantUrl } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { loadCartprepConfig } from '../services/cartprep/src/config.ts';
import { loadCommerceConfig } from '../services/commerce/src/config.ts';
import { configProblemOf } from './config-problem.ts';

const LOADERS = [
  ['COMMERCE', loadCommerceConfig],
  ['CARTPREP', loadCartprepConfig],
] as const;

describe('COMMERCE_ALLOWED_DOMAINS / CARTPREP_ALLOWED_DOMAINS', () => {
  for (const [prefix, load] of LOADERS) {
    const name = `${prefix}_ALLOWED_DOMAINS`;
    const env = (domains: string) => ({
      APP_ENV: 'test',
      [`${prefix}_ENFORCE_DOMAIN_ALLOWLIST`]: 'true',
      [name]: domains,
    });

    it(`${name}: an entry that is not a bare domain name stops the boot, naming the setting and the entry`, () => {
      for (const [domains, bad] of [
        ['https://shop.example.com/', 'https://shop.example.com/'],
        ['shop.example.com,https://other.example', 'https://other.example'],
        ['shop.example.com:443', 'shop.example.com:443'],
        ['shop.example.com/path', 'shop.example.com/path'],
        ['example.com.', 'example.com.'],
        ['exa mple.com', 'exa mple.com'],
        ['-shop.example.com', '-shop.example.com'],
        ['shop..example.com', 'shop..example.com'],
        ['*.', '*.'],
        ['shop.*.com', 'shop.*.com'],
        ['shop_1.example.com', 'shop_1.example.com'],
      ]) {
        const message = configProblemOf(() => load(env(domains!)));
        expect(message, domains).toMatch(
          new RegExp(`^Configuration error: ${name} must be comma-separated bare domain names`),
        );
        expect(message, domains).toContain(`${JSON.stringify(bad)} is not one`);
        expect(message, domains).toContain(`(value: ${JSON.stringify(domains)})`);
      }
    });

    it(`${name}: bare names and *.wildcards (a domain covers its subdomains) are taken, and then match`, () => {
      const value = 'shop.example.com, *.Example.org,.example.net,xn--bcher-kva.example,a1-b2.co';
      expect(configProblemOf(() => load(env(value)))).toBe('booted');
      // The allowlist check itself (packages/contracts) takes these forms.
      const entries = value.split(',').map((d) => d.trim());
      expect(checkMerchantUrl('https://shop.example.com/p', { allowedDomains: entries }).ok).toBe(true);
      expect(checkMerchantUrl('https://www.example.org/p', { allowedDomains: entries }).ok).toBe(true);
      expect(checkMerchantUrl('https://www.example.net/p', { allowedDomains: entries }).ok).toBe(true);
    });
  }

  it('checked whether or not the allowlist is enforced (a wrong value is wrong either way)', () => {
    expect(
      configProblemOf(() => loadCommerceConfig({ COMMERCE_ALLOWED_DOMAINS: 'https://shop.example.com/' })),
    ).toMatch(/^Configuration error: COMMERCE_ALLOWED_DOMAINS must be/);
  });
});
