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

/** Loads once per change of `key`; keeps the last data while reloading so the page does not flicker. */
export function useResource<T>(key: string, load: () => Promise<T>): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const result = await loadRef.current();
      if (mine === generation.current) {
        setData(result);
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
    setData(undefined);
    void reload();
  }, [key, reload]);

  return { data, error, loading, reload, set: setData };
}

export function toApiError(caught: unknown): ApiError {
  if (caught instanceof ApiError) return caught;
  return new ApiError(0, 'client_error', caught instanceof Error ? caught.message : String(caught));
}
