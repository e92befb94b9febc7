/**
 * The inline script that starts the app's JavaScript (docs/decisions/0034): it adds the route's module preloads and
 * the entry module at the page's first contentful paint, or BOOT_LATEST_MS after the navigation started if that
 * comes first; at once in a hidden tab (where nothing paints); and only once, however often it runs. Plain ES5 in
 * a string: it runs before any bundle.
 */

/**
 * The latest the app's code is asked for, from the start of the navigation. On a fast network the page paints
 * before this, and its scripts wait for that paint instead of taking the main thread from it. On a slow one the
 * page arrives later than this, so the code is asked for as soon as the boot script runs: once the stylesheet is
 * in, which 0034 measures against the preloads of before.
 */
export const BOOT_LATEST_MS = 400

export function bootScript(entry: string, preloads: readonly string[]): string {
  // JSON in a <script>: "</script" or "<!--" in a value would end the element, so every "<" of it is escaped.
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c')
  return (
    '(function(w,d){if(w.__appBoot)return;w.__appBoot=1;' +
    // The page's queries count as fetched now, when the document came over the network (docs/decisions/0040):
    // a page answered again after its render, or a device clock ahead of the server's, would otherwise make them
    // stale at once, and each would fetch again as it mounts. The router's dehydrated state is already parsed (its
    // script comes before this one); a copy from the browser's own cache has no bytes on the wire and is left as
    // it is. Here rather than in the entry: it costs the 130 KB first-load budget nothing.
    // Only queries fetched successfully; and nothing here may stop the app from starting.
    "try{var n=w.performance.getEntriesByType&&w.performance.getEntriesByType('navigation')[0]," +
    'r=w.$_TSR&&w.$_TSR.router,q=r&&r.dehydratedData&&r.dehydratedData.query,' +
    'a=(n&&n.transferSize>0&&q&&q.initial)||[],t=Date.now();' +
    "for(var j=0;j<a.length;j++){var x=a[j].state;if(x&&x.status==='success'&&x.dataUpdatedAt)x.dataUpdatedAt=t}" +
    '}catch(e){}' +
    'var done=0;function go(){if(done)return;done=1;' +
    `var p=${json(preloads)};for(var i=0;i<p.length;i++){var l=d.createElement('link');l.rel='modulepreload';` +
    `l.href=p[i];l.fetchPriority='low';d.head.appendChild(l)}var s=d.createElement('script');s.type='module';` +
    `s.src=${json(entry)};d.head.appendChild(s)}` +
    `var wait=${BOOT_LATEST_MS}-w.performance.now();` +
    "if(wait<=0||d.visibilityState==='hidden')return go();setTimeout(go,wait);" +
    "d.addEventListener('visibilitychange',go,{once:true});" +
    // The first contentful paint's entry comes once the frame is on screen (a requestAnimationFrame callback runs
    // before its frame is even drawn); without paint timing, the task after the next frame.
    "function painted(l){return l.getEntriesByName('first-contentful-paint').length>0}" +
    "var P=w.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){" +
    'if(painted(w.performance))return go();' +
    "new P(function(l,o){if(painted(l)){o.disconnect();go()}}).observe({type:'paint',buffered:true})}" +
    'else w.requestAnimationFrame(function(){setTimeout(go,0)})})(window,document)'
  )
}
