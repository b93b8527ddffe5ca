import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { replayEarlyClick } from './app/early-click';
import { AppProvider, createQueryClient } from './app/provider';
import { createAppRouter } from './app/router';
import { startRuntimeGuards } from './app/runtime';
import { loadUserInfo } from './features/auth';
import { homeInfoQueryOptions } from './features/home';
import './styles/global.css';

const queryClient = createQueryClient();

// On start: home info for the footer, and the user info when a token cookie exists (spec §2/§4).
void queryClient.prefetchQuery(homeInfoQueryOptions);
void loadUserInfo();
startRuntimeGuards();

const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// As a transition: React renders the first page in slices of a few milliseconds instead of one long
// task, so the page (prerendered `/`, else the loading text) stays responsive meanwhile (Lighthouse's
// total blocking time).
replayEarlyClick(container);
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
});
