// `pnpm bench`: prints the project's performance figures; asserts nothing.
//  1. offer search latency at 1k / 10k / 100k offers of one household (sqlite backend);
//  2. a stub-model chat turn through the gateway vs. a plain authenticated gateway read;
//  3. a cart-prep job in real Chromium and the memory of a browser session.
import { formatBrowserBench, runBrowserBench } from './bench-browser.ts';
import { formatChatBench, runChatBench } from './bench-chat.ts';
import { formatSearchBench, runSearchBench } from './bench-search.ts';

const only = process.argv[2];
if (!only || only === 'search') {
  console.log('\n== Offer search scaling (sqlite) ==');
  console.log(formatSearchBench(await runSearchBench()));
}
if (!only || only === 'chat') {
  console.log('\n== Mission chat turn vs. gateway read ==');
  console.log(formatChatBench(await runChatBench()));
}
if (!only || only === 'browser') {
  console.log('\n== Real browsers (Chromium) ==');
  console.log(formatBrowserBench(await runBrowserBench()));
}
