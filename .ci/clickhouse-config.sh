#!/usr/bin/env bash
# Writes a self-contained config.xml/users.xml for Debian's clickhouse-server 18.16 into $1
# (data, logs and temp files under that directory; HTTP on 127.0.0.1:$2, native TCP on $3).
# Users: `default` (no password) and `chwire` / `chwire-secret` (for the authentication tests);
# `chwire_utf8` / `пароль😀`, `chwire_latin1` / `café` (as SHA-256) and `пользователь` / `ключ`
# for non-ASCII credentials (test/server.credentials.test.ts).
set -euo pipefail
dir="$1"; http_port="$2"; tcp_port="$3"
mkdir -p "$dir/data" "$dir/tmp" "$dir/log" "$dir/user_files" "$dir/format_schemas"
cat > "$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger>
        <level>warning</level>
        <log>$dir/log/server.log</log>
        <errorlog>$dir/log/server.err.log</errorlog>
        <size>100M</size>
        <count>1</count>
    </logger>
    <http_port>$http_port</http_port>
    <tcp_port>$tcp_port</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_connections>256</max_connections>
    <max_concurrent_queries>64</max_concurrent_queries>
    <uncompressed_cache_size>8589934592</uncompressed_cache_size>
    <mark_cache_size>536870912</mark_cache_size>
    <path>$dir/data/</path>
    <tmp_path>$dir/tmp/</tmp_path>
    <user_files_path>$dir/user_files/</user_files_path>
    <format_schema_path>$dir/format_schemas/</format_schema_path>
    <users_config>$dir/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
</yandex>
XML
cat > "$dir/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
            <load_balancing>random</load_balancing>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <chwire>
            <password>chwire-secret</password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </chwire>
        <chwire_utf8>
            <password>пароль😀</password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </chwire_utf8>
        <chwire_latin1>
            <password_sha256_hex>$(printf '%s' 'café' | sha256sum | cut -d' ' -f1)</password_sha256_hex>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </chwire_latin1>
        <пользователь>
            <password>ключ</password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </пользователь>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
XML
