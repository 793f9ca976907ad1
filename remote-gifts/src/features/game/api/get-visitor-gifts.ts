/** `GET /api/visitor/gifts` for the game page's list (the query: shared/browser/api/visitor-gifts-query). */
import { useQuery } from '@tanstack/react-query';
import { useApi } from 'shared/browser/api/api-context';
import { visitorGiftsQueryOptions } from 'shared/browser/api/visitor-gifts-query';

export function useVisitorGifts() {
  return useQuery(visitorGiftsQueryOptions(useApi()));
}
