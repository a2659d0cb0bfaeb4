import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api/client.ts';

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => Promise<T | undefined>;
  /** Replaces the data with what a write returned, without another round trip. */
  set: (data: T) => void;
}

/**
 * Loads once per change of `key`; keeps the last data while reloading the same key so the page does not flicker,
 * but never shows one key's data under another (page 2's caption over page 1's rows).
 */
export function useResource<T>(key: string, load: () => Promise<T>): Resource<T> {
  const [loaded, setLoaded] = useState<{ key: string; data: T } | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const keyRef = useRef(key);
  keyRef.current = key;
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const result = await loadRef.current();
      if (mine === generation.current) {
        setLoaded({ key: keyRef.current, data: result });
        setError(undefined);
      }
      return result;
    } catch (caught) {
      if (mine === generation.current) setError(toApiError(caught));
      return undefined;
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    setError(undefined);
    void reload();
  }, [key, reload]);

  const set = useCallback((data: T) => setLoaded({ key: keyRef.current, data }), []);
  const data = loaded?.key === key ? loaded.data : undefined;
  return { data, error, loading, reload, set };
}

export function toApiError(caught: unknown): ApiError {
  if (caught instanceof ApiError) return caught;
  return new ApiError(0, 'client_error', caught instanceof Error ? caught.message : String(caught));
}
