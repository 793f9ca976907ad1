/** A field's inline message; the field points at it with aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="p-redeem__field-error">
      {message}
    </p>
  );
}
