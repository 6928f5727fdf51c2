// Each "open in your wallet" format against its wallet's own documented example (the source each
// entry names), and the page offers only the wallets that pay one of the payment's chains.
import { describe, expect, it } from 'vitest';
import { renderWalletLinksSection, WALLET_LINKS, walletLinksFor } from './wallet-links.ts';

const link = (id: string, url: string) => WALLET_LINKS.find((w) => w.id === id)!.link(url);
const PAGE = 'https://pay.example.com/pay/pay_01ABC?x=1&y=a b';

describe('wallet link formats, as each wallet documents them', () => {
  it('MetaMask: link.metamask.io/dapp/ followed by the URL without its scheme (docs example: app.uniswap.org)', () => {
    expect(link('metamask', 'https://app.uniswap.org')).toBe('https://link.metamask.io/dapp/app.uniswap.org');
    expect(link('metamask', 'https://pay.example.com/pay/pay_01ABC')).toBe('https://link.metamask.io/dapp/pay.example.com/pay/pay_01ABC');
  });

  it('Coinbase Wallet: go.cb-w.com/dapp?cb_url=<percent-encoded> (the docs’ own example, byte for byte)', () => {
    expect(link('coinbase', 'https://nft.coinbase.com/@barmstrong?param1=hello&param2=world')).toBe(
      'https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fnft.coinbase.com%2F%40barmstrong%3Fparam1%3Dhello%26param2%3Dworld',
    );
  });

  it('Trust Wallet: link.trustwallet.com/open_url?coin_id=60&url=<encoded>; the url parameter reads back as the page', () => {
    expect(link('trust', 'https://compound.finance')).toBe('https://link.trustwallet.com/open_url?coin_id=60&url=https%3A%2F%2Fcompound.finance');
    const params = new URL(link('trust', PAGE)).searchParams;
    expect(params.get('coin_id')).toBe('60');
    expect(params.get('url')).toBe(PAGE);
  });

  it('OKX Wallet: okx://wallet/dapp/url?dappUrl=<encoded>, encoded again into web3.okx.com/download?deeplink=', () => {
    expect(link('okx', 'https://app.uniswap.org/')).toBe(
      'https://web3.okx.com/download?deeplink=okx%3A%2F%2Fwallet%2Fdapp%2Furl%3FdappUrl%3Dhttps%253A%252F%252Fapp.uniswap.org%252F',
    );
    const deeplink = new URL(new URL(link('okx', PAGE)).searchParams.get('deeplink')!);
    expect(deeplink.protocol).toBe('okx:');
    expect(deeplink.searchParams.get('dappUrl')).toBe(PAGE);
  });

  it('Phantom: phantom.app/ul/browse/<encoded url>?ref=<encoded origin> (the docs’ Magic Eden example)', () => {
    expect(link('phantom', 'https://magiceden.io/item-details/8yjN8iRuoiYiKW487cnW9vn6mLBR5E8aCNKsBRmTP9vN')).toBe(
      'https://phantom.app/ul/browse/https%3A%2F%2Fmagiceden.io%2Fitem-details%2F8yjN8iRuoiYiKW487cnW9vn6mLBR5E8aCNKsBRmTP9vN?ref=https%3A%2F%2Fmagiceden.io',
    );
  });

  it('Solflare: solflare.com/ul/v1/browse/<encoded url>?ref=<encoded origin>; the path segment reads back as the page', () => {
    const url = new URL(link('solflare', PAGE));
    expect(url.origin + url.pathname.slice(0, '/ul/v1/browse/'.length)).toBe('https://solflare.com/ul/v1/browse/');
    expect(decodeURIComponent(url.pathname.slice('/ul/v1/browse/'.length))).toBe(PAGE);
    expect(url.searchParams.get('ref')).toBe('https://pay.example.com');
  });

  it('Backpack: backpack.app/ul/v1/browse/<encoded url>?ref=<encoded origin>; path and ref read back as the page and its origin', () => {
    expect(link('backpack', 'https://magiceden.io/item-details/8yjN8iRuoiYiKW487cnW9vn6mLBR5E8aCNKsBRmTP9vN')).toBe(
      'https://backpack.app/ul/v1/browse/https%3A%2F%2Fmagiceden.io%2Fitem-details%2F8yjN8iRuoiYiKW487cnW9vn6mLBR5E8aCNKsBRmTP9vN?ref=https%3A%2F%2Fmagiceden.io',
    );
    const url = new URL(link('backpack', PAGE));
    expect(url.origin + url.pathname.slice(0, '/ul/v1/browse/'.length)).toBe('https://backpack.app/ul/v1/browse/');
    // One path segment: every slash, query and space of the page is encoded, nothing leaks into the link's own query.
    expect(url.pathname.slice('/ul/v1/browse/'.length)).not.toMatch(/[/?&# ]/);
    expect(decodeURIComponent(url.pathname.slice('/ul/v1/browse/'.length))).toBe(PAGE);
    expect([...url.searchParams.keys()]).toEqual(['ref']);
    expect(url.searchParams.get('ref')).toBe('https://pay.example.com');
  });

  it('every entry names the documentation it follows', () => {
    for (const w of WALLET_LINKS) expect(w.source, w.id).toMatch(/^https:\/\/(docs|developer|web3)\./);
  });
});

describe('which wallets the page offers', () => {
  it('only the wallets that pay one of the payment’s chains', () => {
    expect(walletLinksFor(PAGE, new Set(['eip155'])).map((l) => l.id)).toEqual(['metamask', 'coinbase', 'trust', 'okx']);
    expect(walletLinksFor(PAGE, new Set(['solana'])).map((l) => l.id)).toEqual(['phantom', 'solflare', 'backpack']);
    expect(walletLinksFor(PAGE, new Set())).toEqual([]);
    expect(renderWalletLinksSection(PAGE, new Set())).toBe('');
  });

  it('renders plain links (a tap opens them; nothing redirects by itself), escaped', () => {
    const html = renderWalletLinksSection(PAGE, new Set(['eip155', 'solana']));
    expect(html.match(/<a class="wallet-link"/g)).toHaveLength(7);
    expect(html).not.toMatch(/<script|http-equiv="refresh"/i);
    expect(html).toContain('href="https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fpay.example.com%2Fpay%2Fpay_01ABC%3Fx%3D1%26y%3Da%20b"');
  });
});
