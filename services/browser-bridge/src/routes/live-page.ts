// The live view page: frames arrive over SSE (`live/frames`), clicks and keys go back as POSTs
// (`live/input`) while the user holds the session. Both carry the page's own token.

export function livePageHtml(nonce: string, token: string): string {
  const t = JSON.stringify(token);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Live browser</title>
<style>body{margin:0;font-family:sans-serif;background:#111;color:#eee}header{padding:.5rem;display:flex;gap:.5rem;align-items:center}#screen{display:block;max-width:100%;cursor:crosshair;background:#222}</style></head>
<body><header><span id="status">connecting</span><button id="take" type="button">Take over</button><button id="release" type="button">Release</button></header>
<img id="screen" alt="Live browser view" tabindex="0">
<script nonce="${nonce}">
const token = ${t};
const q = '?token=' + encodeURIComponent(token);
const img = document.getElementById('screen');
const status = document.getElementById('status');
let frame = { width: 1280, height: 800 };
const frames = new EventSource('live/frames' + q);
frames.addEventListener('frame', (e) => { const f = JSON.parse(e.data); frame = f; img.src = 'data:image/jpeg;base64,' + f.data; img.dataset.frames = String(Number(img.dataset.frames || 0) + 1); });
frames.addEventListener('status', (e) => { status.textContent = JSON.parse(e.data).status; });
const post = (path, body) => fetch(path + q, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) })
  .then(async (r) => { if (r.ok) { const s = await r.json().catch(() => null); if (s && s.status) status.textContent = s.status; } else status.textContent = (await r.json().catch(() => ({}))).message || 'refused'; });
document.getElementById('take').onclick = () => post('live/takeover');
document.getElementById('release').onclick = () => post('live/release');
img.addEventListener('click', (e) => {
  const r = img.getBoundingClientRect();
  post('live/input', { type: 'click', x: Math.round((e.clientX - r.left) * frame.width / r.width), y: Math.round((e.clientY - r.top) * frame.height / r.height) });
  img.focus();
});
img.addEventListener('keydown', (e) => { e.preventDefault(); post('live/input', e.key.length === 1 ? { type: 'text', text: e.key } : { type: 'key', key: e.key }); });
img.addEventListener('wheel', (e) => { e.preventDefault(); post('live/input', { type: 'scroll', deltaY: Math.round(e.deltaY) }); }, { passive: false });
</script></body></html>`;
}
