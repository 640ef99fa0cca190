// tsc knows nothing of .astro files; the tests import them only to hand them to the container.
declare module '*.astro' {
  const component: import('astro/runtime/server/index.js').AstroComponentFactory;
  export default component;
}
