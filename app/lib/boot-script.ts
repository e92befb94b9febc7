/**
 * The inline script that starts the app's JavaScript after the page's first paint (docs/decisions/0034): it adds
 * the route's module preloads and the entry module once the first frame is out, at once in a hidden tab (where no
 * frame comes), and does it only once however often it runs. Plain ES5 in a string: it runs before any bundle.
 */
/** How long the boot waits for a first paint that is not reported before starting the app anyway. */
export const BOOT_FALLBACK_MS = 3000

export function bootScript(entry: string, preloads: readonly string[]): string {
  // JSON in a <script>: "</script" or "<!--" in a value would end the element, so every "<" of it is escaped.
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c')
  return (
    '(function(w,d){if(w.__appBoot)return;w.__appBoot=1;var done=0;function go(){if(done)return;done=1;' +
    `var p=${json(preloads)};for(var i=0;i<p.length;i++){var l=d.createElement('link');l.rel='modulepreload';` +
    `l.href=p[i];l.fetchPriority='low';d.head.appendChild(l)}var s=d.createElement('script');s.type='module';` +
    `s.src=${json(entry)};d.head.appendChild(s)}` +
    // The first contentful paint's entry comes once the frame is on screen (a requestAnimationFrame callback runs
    // before its frame is even drawn); without paint timing, the task after the next frame.
    "function painted(l){return l.getEntriesByName('first-contentful-paint').length>0}" +
    "if(d.visibilityState==='hidden')return go();d.addEventListener('visibilitychange',go,{once:true});" +
    "var P=w.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){" +
    'if(painted(w.performance))return go();' +
    "new P(function(l,o){if(painted(l)){o.disconnect();go()}}).observe({type:'paint',buffered:true})}" +
    'else w.requestAnimationFrame(function(){setTimeout(go,0)});' +
    // A browser that never reports the paint still starts the app (what it did before: the script at once).
    `setTimeout(go,${BOOT_FALLBACK_MS})})(window,document)`
  )
}
