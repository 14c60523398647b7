"""Issue 36, round 17 part B: classic kinds in the spellings the kind x ecosystem matrix (bench/plant_matrix/) found
unread — a credential as a bare setting value (YAML, a systemd unit, an env template, a README's export), a shell's
``-c`` given built text where the shell is an argument (.NET, Elixir, Node), Ruby's ``instance_eval`` of a value,
Razor's ``Html.Raw``, SQL built by ``format!``, a PHP CORS array open to any origin, ASP.NET's
detailed errors, and an equality call (``SequenceEqual``, ``bytes.Equal``) replacing a constant-time compare. Each
planted shape was named by no rule before (or stayed low); each near miss is the same syntax used safely."""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("config/application.yml", ["  password: hunter2-prod-Xk29!"], ["  password: ${DB_PASSWORD}"], "hard-codes a credential"),
        ("deploy/shop.service", ["Environment=DB_PASSWORD=Pr0dPassw0rd!77"], [], "hard-codes a credential"),
        # a secret-named variable's literal: the secret row's own shape (relay.review.secret_lines), said once by it
        (".env.example", ["MAIL_PASSWORD=Zq8!mailPass2024"], ["MAIL_PASSWORD="], "hard-codes a secret: MAIL_PASSWORD=Zq8…"),
        ("README.md", ["export SHOP_TOKEN=shp_8fK2mQz9LwR4tY7uPa3XcV"], ["export SHOP_TOKEN=<your token>"], "hard-codes a secret: export SHOP_TOKEN=shp…"),
        ("src/Shop/Services/Archive.cs", ['            Process.Start("/bin/sh", $"-c \\"tar czf {name}.tgz {name}\\"");'],
         ['            Process.Start("tar", new[] { "czf", name + ".tgz", name });'], "runs a shell command"),
        ("lib/shop/archive.ex", ['    System.cmd("sh", ["-c", "tar czf #{name}.tgz #{name}"])'], ['    System.cmd("tar", ["czf", name <> ".tgz", name])'],
         "runs a shell command"),
        ("src/archive.js", ["  return spawnSync('sh', ['-c', `tar czf ${name}.tgz ${name}`]);"], ["  return spawnSync('tar', ['czf', `${name}.tgz`, name]);"],
         "runs a shell command"),
        ("lib/shop/calc.rb", ["      instance_eval(expr)"], ["      Calculator.new.evaluate(expr)"], "runs text as code"),
        ("src/Shop/Views/Orders/Show.cshtml", ['<div class="note">@Html.Raw(Model.Note)</div>'], ['<div class="note">@Model.Note</div>'],
         "turns autoescaping off"),
        ("src/repo.rs", ["    sqlx::query_as(&format!(\"SELECT * FROM users WHERE name = '{}'\", name)).fetch_all(pool).await"],
         ['    sqlx::query_as("SELECT * FROM users WHERE name = $1").bind(name).fetch_all(pool).await'], "builds SQL from text"),
        ("config/cors.php", ["    'allowed_origins' => ['*'],"], ["    'allowed_origins' => ['https://shop.example.com'],"], "opens CORS to any origin"),
        ("src/Shop/appsettings.Production.json", ['  "DetailedErrors": true,'], ['  "DetailedErrors": false,'], "turns debug mode on"),
        ("src/Shop/Services/Webhook.cs", ["            return signature.SequenceEqual(expected);"],
         ["            return CryptographicOperations.FixedTimeEquals(signature, expected);"], "replaces a constant-time comparison"),
        # the matrix's second round: Svelte {@html}, a JPA query joined with a value, POSIX permissions for others' writes,
        # PHP define() and a connection string's password, ASP.NET's exception page out of its Development branch
        ("src/lib/Note.svelte", ['<div class="note">{@html note}</div>'], ['<div class="note">{note}</div>'], "turns autoescaping off"),
        ("src/main/java/org/acme/UserRepo.java", ["        return em.createQuery(\"from User u where u.name = '\" + name + \"'\", User.class).getResultList();"],
         ['        return em.createQuery("from User u where u.name = :name", User.class).setParameter("name", name).getResultList();'],
         "builds SQL from text"),
        ("src/main/java/org/acme/Store.java", ['        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxrwxrwx"));'], [], "world-writable"),
        ("app/Config/db.php", ["define('DB_PASSWORD', 'Qx7!prodDbPass2024');"], [], "hard-codes a credential (DB_PASSWORD: Qx7!pr…)"),
        ("src/Shop/appsettings.json", ['    "Default": "Server=db;Database=shop;User Id=shop;Password=Pr0d!Shop2024;"'],
         ['    "Default": "Server=db;Database=shop;User Id=shop;"'], "hard-codes a credential (Password: Pr0d!S…)"),
        ("src/Shop/Program.cs", ["app.UseDeveloperExceptionPage();"], ["if (app.Environment.IsDevelopment())", "{", "    app.UseDeveloperExceptionPage();", "}"],
         "turns debug mode on"),
    ],
)
def test_a_classic_shape_of_the_matrix_is_named_and_never_low(path, added, removed, named):
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(named in r for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        # a reference, a placeholder, a path, a URL, a name that only ends like a key, a value of one case
        ("config/application.yml", ["  password: ${DB_PASSWORD_2}"], ["  password: ${DB_PASSWORD}"]),
        (".env.example", ["API_TOKEN=your-Token-here1"], ["API_TOKEN="]),
        ("config/app.yml", ["  token_endpoint: https://Login.example.com/oauth2/token"], []),
        ("config/app.yml", ["  secret_file: /etc/Shop/secret2.pem"], []),
        ("config/app.yml", ["  password_min_length: 12"], []),
        ("deploy/shop.service", ["Environment=DB_PASSWORD_FILE=/run/secrets/db2"], []),
        ("config/app.yml", ["  api_key: abcdef123456"], []),
        # a shell given a constant script; a shell run with its arguments apart
        ("src/Shop/Services/Archive.cs", ['            Process.Start("/bin/sh", "-c \\"make clean\\"");'], []),
        ("lib/shop/archive.ex", ['    System.cmd("tar", ["czf", "#{name}.tgz", name])'], []),
        # a block, a heredoc
        ("lib/shop/calc.rb", ["      instance_eval(&block)", "      class_eval <<~RUBY, __FILE__, __LINE__ + 1"], []),
        ("src/Shop/Views/Orders/Show.cshtml", ['@Html.Raw("<br/>")', "<div>@Model.Note</div>"], []),
        ("src/repo.rs", ['    let msg = format!("selected {} rows from {}", n, table);'], []),
        ("config/cors.php", ["    'allowed_origins' => ['https://shop.example.com', 'https://admin.example.com'],"], []),
        ("src/Shop/appsettings.Development.json", ['  "Logging": { "LogLevel": { "Default": "Debug" } },'], []),
        ("src/lib/Note.svelte", ["{@html '<br/>'}", "{@const html = render(note)}"], []),
        ("src/main/java/org/acme/UserRepo.java", ['        return em.createQuery("from User u where u.name = :name", User.class);'], []),
        ("src/main/java/org/acme/Store.java", ['        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-x---"));'], []),
        ("app/Config/db.php", ["define('DB_PASSWORD', env('DB_PASSWORD'));", "define('DB_PASSWORD_MIN', '12');"], []),
        # a minified file's list of names: "password" before a name, not a value
        ("dist/xlsx.mini.min.map", ['"names":["write_ws_xml_protection","sp","password","crypto_CreatePasswordVerifier_Method1"]'], []),
        ("src/Shop/appsettings.json", ['    "Default": "Server=db;Database=shop;User Id=shop;Password=${DB_PASSWORD};"'], []),
        ("src/Shop/Program.cs", ["    app.UseDeveloperExceptionPage();"], []),
    ],
)
def test_the_same_syntax_used_safely_stays_quiet(path, added, removed):
    out = review(fc(path, added, removed))
    words = ("hard-codes a credential", "runs a shell command", "runs text as code", "turns autoescaping off", "builds SQL from text",
             "opens CORS", "turns debug mode on", "world-writable")
    assert not any(w in r for r in out.reasons for w in words), out.reasons


def test_a_credential_is_never_shown_whole_in_the_reason():
    out = review(fc("config/application.yml", ["  password: hunter2-prod-Xk29!"], ["  password: ${DB_PASSWORD}"]))
    assert any("hard-codes a credential in a setting (password: hunter…)" in r for r in out.reasons), out.reasons
    assert not any("Xk29" in r for r in out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # a doc comment's sample: Rust and Swift ///, Javadoc <pre>{@code}, KDoc and JSDoc * lines, C# /// <code>
        ("src/lib.rs", ["/// let client = reqwest::Client::builder().danger_accept_invalid_certs(true).build()?;"],
         ["/// let client = reqwest::Client::builder().build()?;"], "turns TLS verification off"),
        ("src/main/java/com/example/ShopClient.java", [" * HttpClient c = HttpClient.newBuilder().hostnameVerifier((h, s) -> true).build();"],
         [" * HttpClient c = HttpClient.newBuilder().build();"], "TLS"),
        ("src/main/kotlin/com/example/Exporter.kt", [' * Runtime.getRuntime().exec("sh -c tar czf $dir/orders.tgz $dir")'], [" * Exporter(dir).run()"],
         "runs a shell command"),
        ("src/rules.js", [" *   const ok = new Function('user', req.body.rule)(user);"], [" *   const ok = evaluate(rule, { user });"], "runs text as code"),
        ("src/Shop/UserRepo.cs", ["    /// var rows = repo.Query($\"SELECT * FROM users WHERE name = '{name}'\");"],
         ['    /// var rows = repo.Query("SELECT * FROM users WHERE name = @name", new { name });'], "builds SQL from text"),
        ("Sources/Shop/Client.swift", ["/// session.configuration.tlsMinimumSupportedProtocolVersion = .TLSv10; let ok = eval(code)"], [], "runs text as code"),
    ],
)
def test_a_doc_comment_sample_is_read_as_code(path, added, removed, named):
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(named in r for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added"),
    [
        # commented-out code under a plain marker, a doc comment's sentence, a safe sample
        ("src/render.js", ["// el.innerHTML = render(note);"]),
        ("app/main.py", ["# app.run(debug=True)"]),
        ("src/lib.rs", ["/// Never call `danger_accept_invalid_certs(true)` in production code, it disables every check."]),
        ("src/main/java/com/example/ShopClient.java", [" * ShopClient c = ShopClient.builder().baseUrl(url).timeout(Duration.ofSeconds(5)).build();"]),
        # a reference or a tag names an API, it runs nothing
        ("src/main/java/com/example/Launcher.java", [" * Starts it: {@link Runtime#exec(String)}"]),
        ("src/main/java/com/example/Launcher.java", [" * @see ProcessBuilder#command(String...) and Runtime#exec(String)"]),
        ("src/lib.rs", ["/// Like [`exec`](std::os::unix::process::CommandExt::exec) but returns eval(code) results."]),
    ],
)
def test_comments_that_are_not_a_risky_sample_stay_out(path, added):
    out = review(fc(path, added, []))
    assert out.risk == "low", out.reasons
