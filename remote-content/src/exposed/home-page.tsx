export default function HomePage() {
  return <h1>Welcome</h1>;
}
