import { loadPaddle, onPaddleEvent, type PaddleCheckoutOptions, type PaddleEvent, useRuntimeConfig } from '@tickety/shared';
import { useCallback, useEffect, useRef, useState } from 'react';

type CheckoutPhase = 'idle' | 'loading' | 'open' | 'completed' | 'failed';

/**
 * Paddle.js's overlay checkout from a page: `open` loads Paddle.js if the shell has not yet, opens
 * the checkout once (a second click while it is open does nothing), and follows Paddle's events:
 * completed (with the transaction id), closed, payment failed.
 */
export function usePaddleCheckout() {
  const config = useRuntimeConfig();
  const [phase, setPhase] = useState<CheckoutPhase>('idle');
  const [transactionId, setTransactionId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const phaseRef = useRef(phase);
  phaseRef.current = phase;

  useEffect(
    () =>
      onPaddleEvent((event: PaddleEvent) => {
        if (event.name === 'checkout.completed') {
          setTransactionId(typeof event.data?.transaction_id === 'string' ? event.data.transaction_id : null);
          setPhase('completed');
        } else if (event.name === 'checkout.closed') {
          setPhase((p) => (p === 'completed' ? p : 'idle'));
        } else if (event.name === 'checkout.payment.failed') {
          setProblem('payment');
        }
      }),
    [],
  );

  const open = useCallback(
    async (options: PaddleCheckoutOptions) => {
      if (phaseRef.current === 'loading' || phaseRef.current === 'open') return;
      setProblem(null);
      setPhase('loading');
      try {
        const paddle = await loadPaddle(config);
        setPhase('open');
        paddle.Checkout.open({ ...options, settings: { displayMode: 'overlay', theme: document.documentElement.classList.contains('dark') ? 'dark' : 'light', ...options.settings } });
      } catch (error) {
        setProblem(error instanceof Error ? error.message : String(error));
        setPhase('failed');
      }
    },
    [config],
  );

  return { phase, transactionId, problem, open, configured: Boolean(config.paddleToken && config.paddleScriptUrl) };
}
