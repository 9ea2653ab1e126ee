// Issue 31 items 15 and 19: a slim bar over the public site for a signed-in staff member only
// (the layout renders it when its loader found a session; stored pages never have one). Plain
// links, no script: public pages stay as light as they were.

export interface StaffBarData {
  name: string;
  isAdmin: boolean;
  maintenance: boolean;
}

export function StaffBar({ staff, editUrl }: { staff: StaffBarData; editUrl: string | null }) {
  return (
    <div className="staff-bar" role="region" aria-label="Панель редакції">
      {staff.maintenance ? (
        <p className="staff-bar-maintenance" data-testid="maintenance-bar">
          <strong>Увімкнено режим обслуговування.</strong> Читачі зараз бачать сторінку «Сайт на технічному обслуговуванні» (503); ви бачите сайт, бо ввійшли як
          працівник редакції.
          {staff.isAdmin ? (
            <>
              {" "}
              <a href="/admin/settings">Вимкнути в налаштуваннях</a>
            </>
          ) : null}
        </p>
      ) : null}
      <div className="staff-bar-row">
        <span className="staff-bar-who">{`Ви ввійшли як ${staff.name}`}</span>
        <a href="/admin/dashboard">Адмін-панель</a>
        {editUrl ? <a href={editUrl}>Редагувати</a> : null}
      </div>
    </div>
  );
}
