import { Link } from 'react-router-dom';

/** The home page's call to action: the component owns it, so it shows even if the text fails. */
export function PlayNowLink() {
  return (
    <Link to="/game" className="p-button p-button--primary p-content__cta">
      Play now
    </Link>
  );
}
