/**
 * The skeleton's import graph for the tree-sitter languages: imports that name files (C/C++
 * includes, Ruby requires, PHP requires and PSR-4 `use`, Kotlin/Scala packages, C# namespaces
 * as folders, Dart, Lua, Perl, Haskell, Elm, Elixir, OCaml modules) resolve to the file of the
 * map they name; packages and system headers that are not in the map resolve to nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImportResolver } from '../src/resolve/index.js';

const PATHS = [
  'include/uv.h',
  'include/uv/unix.h',
  'src/unix/core.c',
  'src/unix/internal.h',
  'src/store.c',
  'src/store.h',
  'lib/rack.rb',
  'lib/rack/request.rb',
  'lib/rack/utils.rb',
  'app/Http/Kernel.php',
  'app/Models/User.php',
  'app/helpers.php',
  'src/main/kotlin/org/koin/core/Koin.kt',
  'src/main/kotlin/org/koin/core/module/Module.kt',
  'src/Serilog/Core/Logger.cs',
  'src/Serilog/Events/LogEvent.cs',
  'lib/src/client.dart',
  'lib/http.dart',
  'src/luarocks/fs.lua',
  'src/luarocks/cmd/init.lua',
  'lib/Mojo/Base.pm',
  'src/Data/Map/Internal.hs',
  'src/Page/Home.elm',
  'lib/plug/conn.ex',
  'cohttp/src/header.ml',
  'modules/scala/util/Try.scala',
].sort();

const r = new ImportResolver(PATHS);

test('C and C++ includes resolve beside the file, then under an include folder; system headers do not', () => {
  assert.equal(r.resolve('src/store.c', 'c', 'store.h'), 'src/store.h');
  assert.equal(r.resolve('src/unix/core.c', 'c', 'internal.h'), 'src/unix/internal.h');
  assert.equal(r.resolve('src/unix/core.c', 'c', 'uv.h'), 'include/uv.h');
  assert.equal(r.resolve('src/unix/core.c', 'cpp', 'uv/unix.h'), 'include/uv/unix.h');
  assert.equal(r.resolve('src/unix/core.c', 'objc', '../store.h'), 'src/store.h');
  assert.equal(r.resolve('src/store.c', 'c', 'stdio.h'), null);
});

test('Ruby requires, PHP requires and PSR-4 uses resolve to their files', () => {
  assert.equal(r.resolve('lib/rack/request.rb', 'ruby', 'utils'), 'lib/rack/utils.rb');
  assert.equal(r.resolve('lib/rack.rb', 'ruby', 'rack/request'), 'lib/rack/request.rb');
  assert.equal(r.resolve('lib/rack.rb', 'ruby', 'json'), null);
  assert.equal(r.resolve('app/Http/Kernel.php', 'php', 'App\\Models\\User'), 'app/Models/User.php');
  assert.equal(r.resolve('app/Http/Kernel.php', 'php', '../helpers.php'), 'app/helpers.php');
  assert.equal(r.resolve('app/Http/Kernel.php', 'php', 'Psr\\Http\\Message\\RequestInterface'), null);
});

test('Kotlin and Scala packages, C# namespaces and Dart packages map to their folders and files', () => {
  assert.equal(r.resolve('src/main/kotlin/org/koin/core/Koin.kt', 'kotlin', 'org.koin.core.module.Module'), 'src/main/kotlin/org/koin/core/module/Module.kt');
  assert.equal(r.resolve('src/main/kotlin/org/koin/core/module/Module.kt', 'kotlin', 'org.koin.core.Koin'), 'src/main/kotlin/org/koin/core/Koin.kt');
  assert.equal(r.resolve('src/main/kotlin/org/koin/core/Koin.kt', 'kotlin', 'kotlinx.coroutines.flow'), null);
  assert.equal(r.resolve('src/x/A.scala', 'scala', 'scala.util.Try'), 'modules/scala/util/Try.scala');
  assert.equal(r.resolve('src/Serilog/Core/Logger.cs', 'csharp', 'Serilog.Events'), 'src/Serilog/Events/LogEvent.cs');
  assert.equal(r.resolve('src/Serilog/Core/Logger.cs', 'csharp', 'System.Text'), null);
  assert.equal(r.resolve('lib/http.dart', 'dart', 'src/client.dart'), 'lib/src/client.dart');
  assert.equal(r.resolve('test/x.dart', 'dart', 'package:http/src/client.dart'), 'lib/src/client.dart');
});

test('module names of Lua, Perl, Haskell, Elm, Elixir and OCaml follow their file conventions', () => {
  assert.equal(r.resolve('src/luarocks/cmd/init.lua', 'lua', 'luarocks.fs'), 'src/luarocks/fs.lua');
  assert.equal(r.resolve('src/luarocks/fs.lua', 'lua', 'luarocks.cmd'), 'src/luarocks/cmd/init.lua');
  assert.equal(r.resolve('lib/Mojo/X.pm', 'perl', 'Mojo::Base'), 'lib/Mojo/Base.pm');
  assert.equal(r.resolve('src/Data/Map.hs', 'haskell', 'Data.Map.Internal'), 'src/Data/Map/Internal.hs');
  assert.equal(r.resolve('src/Main.elm', 'elm', 'Page.Home'), 'src/Page/Home.elm');
  assert.equal(r.resolve('lib/plug.ex', 'elixir', 'Plug.Conn'), 'lib/plug/conn.ex');
  assert.equal(r.resolve('cohttp/src/body.ml', 'ocaml', 'Header'), 'cohttp/src/header.ml');
});
