import { lazy, Suspense } from 'react';

// A second hop: the route's own chunk stays tiny, so the public entry lists none of the console's
// dependencies (docs: the public site's bundles do not grow).
const ConsoleApp = lazy(() => import('../../features/console').then((m) => ({ default: m.ConsoleApp })));

export default function AdminRoute() {
  return (
    <Suspense fallback={null}>
      <ConsoleApp />
    </Suspense>
  );
}
